import type { z } from "zod";
import type { ExtractRecord } from "../types";

export type ReductionData = Record<string, unknown>;
export type ReductionStore = Record<string, unknown>;

export interface ReducerOutput {
  data: ReductionData;
  /** Running reducers' state between runs; null in default mode. */
  store: ReductionStore | null;
}

export interface ReducerDef<C = unknown> {
  schema: z.ZodType<C, unknown>;
  /** One line describing `data`, for documentation and the API. */
  output: string;
  /** Default reduction: all (filtered) extracts of the subject or user, in classification order. */
  reduce(config: C, extracts: readonly ExtractRecord[]): ReductionData;
  /** Running reduction: only extracts not yet incorporated, plus the previous store. */
  runningReduce?(config: C, newExtracts: readonly ExtractRecord[], store: ReductionStore): { data: ReductionData; store: ReductionStore };
  /** Performed outside the engine (HTTP, a message queue): the pipeline builds the request instead. */
  remote?: boolean;
}

/** Thrown when a reducer cannot run in-process (external) or a config asks for what its type cannot do. */
export class ReducerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReducerError";
  }
}

/** A reduction with no data is not stored: `null`, or an object without keys. */
export function isEmptyReduction(data: unknown): boolean {
  if (data === null || data === undefined) return true;
  return typeof data === "object" && !Array.isArray(data) && Object.keys(data).length === 0;
}

/**
 * A field of an extract's data: the exact key first (keys may contain dots), then a dotted path into
 * nested objects (`a.b.c`). Undefined when absent.
 */
export function dataField(data: unknown, field: string): unknown {
  if (!data || typeof data !== "object") return undefined;
  const obj = data as Record<string, unknown>;
  if (Object.hasOwn(obj, field)) return obj[field];
  const dot = field.indexOf(".");
  if (dot <= 0) return undefined;
  // Try the longest key prefix first so `{"a.b": {"c": 1}}` and `{"a": {"b.c": 1}}` both resolve.
  for (let i = field.lastIndexOf("."); i > 0; i = field.lastIndexOf(".", i - 1)) {
    const head = field.slice(0, i);
    if (Object.hasOwn(obj, head)) {
      const found = dataField(obj[head], field.slice(i + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `"f.size"` → `{extractorKey: "f", field: "size"}`. */
export function splitFieldRef(ref: string): { extractorKey: string; field: string } {
  const dot = ref.indexOf(".");
  return { extractorKey: ref.slice(0, dot), field: ref.slice(dot + 1) };
}

/** A stored list of classification ids (from a running store) as a set. */
export function idSet(value: unknown): Set<number> {
  return new Set(Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : []);
}

export const numberOr = (v: unknown, fallback: number): number => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
