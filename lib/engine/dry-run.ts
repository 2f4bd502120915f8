// A dry run of a decision-engine configuration: classifications through its extractors, reducers and rules
// in memory, with the same pure functions the pipeline runs, writing nothing. It answers what the pipeline
// would store and do: every extract, every reduction per subject (and per volunteer for user reducers),
// the rules that would fire with their effects; and, beside a second configuration (the saved one), the
// differences. External extractors, reducers and effects call other services: they are listed as skipped.
import type { TEngineWorkflowConfig } from "./config";
import { extract, ExtractorError } from "./extractors";
import { isEmptyReduction, reduce, selectExtracts } from "./reducers";
import { evaluateRules, reductionContext, type RuleTopic } from "./rules";
import type { ClassificationData, ExtractRecord, SubjectMetadata } from "./types";

export type DryRunClassification = ClassificationData & { created_at: string };

export interface DryRunReduction {
  topic: RuleTopic;
  target_id: number;
  reducer_key: string;
  subgroup: string;
  data: Record<string, unknown>;
}

export interface DryRunTarget {
  topic: RuleTopic;
  target_id: number;
  /** The rules that would fire, in order, with their effects. */
  fired: { rule_index: number; effects: Record<string, unknown>[] }[];
  /** The subject would be retired (a retire_subject effect fires), and why. */
  retires: boolean;
  retirement_reason: string | null;
}

export interface DryRunResult {
  classifications: number;
  extracts: { classification_id: number; subject_id: number; user_id: number | null; extractor_key: string; data: unknown }[];
  reductions: DryRunReduction[];
  targets: DryRunTarget[];
  /** What the run could not do in memory (external extractors and reducers). */
  skipped: string[];
}

const TOPIC_OF: Record<string, RuleTopic> = { reduce_by_subject: "subject", reduce_by_user: "user" };

export function dryRun(config: TEngineWorkflowConfig, classifications: DryRunClassification[]): DryRunResult {
  const skipped: string[] = [];
  const extracts: ExtractRecord[] = [];
  const metadata = new Map<number, SubjectMetadata>();
  const sorted = [...classifications].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
  for (const [key, ex] of Object.entries(config.extractors_config ?? {}))
    if (ex.type === "external") skipped.push(`extractor '${key}' (external)`);
  for (const c of sorted) {
    if (!c.subject_id) continue;
    metadata.set(c.subject_id, c.subject?.metadata ?? {});
    for (const [key, ex] of Object.entries(config.extractors_config ?? {})) {
      if (ex.type === "external") continue;
      let out: ReturnType<typeof extract>;
      try {
        out = extract(ex, c);
      } catch (err) {
        if (err instanceof ExtractorError) continue; // the classification lacks what the extractor needs
        throw err;
      }
      if (out.kind !== "data") continue;
      extracts.push({
        id: extracts.length + 1,
        classificationId: c.id,
        classificationAt: c.created_at,
        subjectId: c.subject_id,
        userId: c.user_id,
        workflowId: c.workflow_id,
        extractorKey: key,
        data: out.data as Record<string, unknown> | null,
      });
    }
  }

  const reductions: DryRunReduction[] = [];
  for (const [key, reducer] of Object.entries(config.reducers_config ?? {})) {
    if (reducer.type === "external") {
      skipped.push(`reducer '${key}' (external)`);
      continue;
    }
    const topic = TOPIC_OF[reducer.topic ?? "reduce_by_subject"];
    const byTarget = new Map<number, ExtractRecord[]>();
    for (const e of extracts) {
      const target = topic === "subject" ? e.subjectId : e.userId;
      if (target === null) continue;
      if (!byTarget.has(target)) byTarget.set(target, []);
      byTarget.get(target)!.push(e);
    }
    for (const [target, group] of byTarget) {
      for (const [subgroup, selected] of selectExtracts(reducer, group, metadata)) {
        const out = reduce(reducer, selected, null);
        if (!isEmptyReduction(out.data)) reductions.push({ topic, target_id: target, reducer_key: key, subgroup, data: out.data });
      }
    }
  }

  const targets: DryRunTarget[] = [];
  const targetIds = (topic: RuleTopic) =>
    [...new Set(extracts.map((e) => (topic === "subject" ? e.subjectId : e.userId)).filter((t): t is number => t !== null))].sort(
      (a, b) => a - b,
    );
  for (const topic of ["subject", "user"] as const) {
    if (!(config.rules_config ?? []).some((r) => (r.topic ?? "subject") === topic)) continue;
    for (const id of targetIds(topic)) {
      const rows = reductions.filter((r) => r.topic === topic && r.target_id === id);
      const fired = evaluateRules(config.rules_config ?? [], config.rules_applied, topic, {
        reductions: reductionContext(rows),
        subject: topic === "subject" ? metadata.get(id) : undefined,
      }).map((f) => ({
        rule_index: f.ruleIndex,
        effects: f.effects as unknown as Record<string, unknown>[],
      }));
      const retire = fired.flatMap((f) => f.effects).find((e) => e.action === "retire_subject");
      targets.push({
        topic,
        target_id: id,
        fired,
        retires: topic === "subject" && !!retire,
        retirement_reason: retire ? String(retire.reason ?? "other") : null,
      });
    }
  }
  return {
    classifications: sorted.length,
    extracts: extracts.map((e) => ({
      classification_id: e.classificationId,
      subject_id: e.subjectId,
      user_id: e.userId,
      extractor_key: e.extractorKey,
      data: e.data,
    })),
    reductions,
    targets,
    skipped,
  };
}

export interface DryRunDifference {
  topic: RuleTopic;
  target_id: number;
  /** Reducer keys (with subgroup when not the default) whose reductions differ. */
  reductions: string[];
  effects: { edited: Record<string, unknown>[]; saved: Record<string, unknown>[] } | null;
}

/** Where the edited configuration's run differs from the saved one's, per subject (or volunteer). */
export function dryRunDiff(edited: DryRunResult, saved: DryRunResult): DryRunDifference[] {
  const key = (topic: string, id: number) => `${topic}:${id}`;
  const reductionsOf = (r: DryRunResult) => {
    const m = new Map<string, Map<string, string>>();
    for (const x of r.reductions) {
      const k = key(x.topic, x.target_id);
      if (!m.has(k)) m.set(k, new Map());
      m.get(k)!.set(x.subgroup === "_default" ? x.reducer_key : `${x.reducer_key}.${x.subgroup}`, JSON.stringify(x.data));
    }
    return m;
  };
  const effectsOf = (r: DryRunResult) => new Map(r.targets.map((t) => [key(t.topic, t.target_id), t.fired.flatMap((f) => f.effects)]));
  const [er, sr, ee, se] = [reductionsOf(edited), reductionsOf(saved), effectsOf(edited), effectsOf(saved)];
  const all = new Set([...er.keys(), ...sr.keys(), ...ee.keys(), ...se.keys()]);
  const out: DryRunDifference[] = [];
  for (const k of all) {
    const [topic, id] = k.split(":");
    const a = er.get(k) ?? new Map<string, string>();
    const b = sr.get(k) ?? new Map<string, string>();
    const changed = [...new Set([...a.keys(), ...b.keys()])].filter((rk) => a.get(rk) !== b.get(rk)).sort();
    const ea = ee.get(k) ?? [];
    const eb = se.get(k) ?? [];
    const effectsDiffer = JSON.stringify(ea) !== JSON.stringify(eb);
    if (changed.length || effectsDiffer)
      out.push({
        topic: topic as RuleTopic,
        target_id: Number(id),
        reductions: changed,
        effects: effectsDiffer ? { edited: ea, saved: eb } : null,
      });
  }
  return out.sort((x, y) => x.topic.localeCompare(y.topic) || x.target_id - y.target_id);
}

/**
 * The answer of POST /engine/workflows/<id>/dry_run: the edited configuration's run and what it warns about,
 * beside the saved configuration's run on the same classifications and where the two differ (null without
 * a saved configuration).
 */
export function dryRunAnswer(edited: DryRunResult, saved: DryRunResult | null, warnings: string[]) {
  return { ...edited, warnings, saved, diff: saved ? dryRunDiff(edited, saved) : null };
}
