import type { z } from "zod";
import type { Annotation, ClassificationData } from "../types";
import { groupAnnotations } from "../types";

export type ExtractOutcome = { kind: "data"; data: Record<string, unknown> } | { kind: "skip"; reason: string };

/** Thrown by `extract` when data is missing and the extractor's `if_missing` is `error` (the default). */
export class ExtractorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractorError";
  }
}

export interface ExtractorDef<C = unknown> {
  schema: z.ZodType<C, unknown>;
  /** Pure: the extract's data for one classification, or a skip. External extractors throw (the pipeline calls out). */
  extract(config: C, classification: ClassificationData): ExtractOutcome;
}

/** What a type-specific extraction returns when the classification lacks what it needs. */
export class Missing {
  constructor(readonly reason: string) {}
}

interface GenericConfig {
  task_key?: string;
  if_missing?: "error" | "ignore" | "reject";
  minimum_workflow_version?: string;
}

/** `"2.10"` → [2, 10]; null when it is not "major" or "major.minor". */
export function parseVersion(v: unknown): [number, number] | null {
  if (typeof v === "number" && Number.isFinite(v)) v = String(v);
  if (typeof v !== "string") return null;
  const m = /^\s*(\d+)(?:\.(\d+))?/.exec(v);
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : null;
}

/** Compares "major.minor" versions numerically (2.10 > 2.9). */
export function compareVersions(a: [number, number], b: [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** The classification's workflow version: the top-level field, else `metadata.workflow_version`. */
function classificationVersion(c: ClassificationData): [number, number] | null {
  return parseVersion(c.workflow_version) ?? parseVersion(c.metadata?.workflow_version);
}

/**
 * Why a classification is below the extractor's `minimum_workflow_version` (or has no readable version when
 * one is required), or null when it may be extracted. Also for the pipeline before calling an external extractor.
 */
export function minimumVersionSkip(
  config: Pick<GenericConfig, "minimum_workflow_version">,
  classification: ClassificationData,
): string | null {
  if (!config.minimum_workflow_version) return null;
  const min = parseVersion(config.minimum_workflow_version);
  if (!min) return null;
  const have = classificationVersion(classification);
  if (!have) return `workflow version unknown; minimum is ${config.minimum_workflow_version}`;
  return compareVersions(have, min) < 0 ? `workflow version ${have.join(".")} is below ${config.minimum_workflow_version}` : null;
}

/**
 * Wraps a type's extraction with the generic fields: a classification older than `minimum_workflow_version`
 * (or without a readable version) is skipped; a `Missing` result becomes an error, `{}` (ignore) or a skip
 * (reject) per `if_missing`.
 */
export function defineExtractor<C extends GenericConfig>(
  schema: z.ZodType<C, unknown>,
  run: (config: C, classification: ClassificationData) => Record<string, unknown> | Missing,
): ExtractorDef<C> {
  return {
    schema,
    extract(config, classification) {
      const tooOld = minimumVersionSkip(config, classification);
      if (tooOld) return { kind: "skip", reason: tooOld };
      const out = run(config, classification);
      if (!(out instanceof Missing)) return { kind: "data", data: out };
      switch (config.if_missing ?? "error") {
        case "ignore":
          return { kind: "data", data: {} };
        case "reject":
          return { kind: "skip", reason: out.reason };
        default:
          throw new ExtractorError(out.reason);
      }
    },
  };
}

/** The annotations of one task (tolerates the stored array form as well as the grouped one). */
export function taskAnnotations(classification: ClassificationData, taskKey: string): Annotation[] {
  const grouped = Array.isArray(classification.annotations)
    ? groupAnnotations(classification.annotations)
    : (classification.annotations ?? {});
  const list = (grouped as Record<string, unknown>)[taskKey];
  return Array.isArray(list) ? (list as Annotation[]) : [];
}
