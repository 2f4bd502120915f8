import type { Sql } from "@/lib/db/sql";
import type { EngineTx } from "./engine-tx";
import { isEmptyReduction, newExtractsFor, previousSubjectIds, reduce, selectExtracts } from "@/lib/engine/reducers";
import type { ExtractRecord } from "@/lib/engine/types";
import {
  COLUMN,
  extractRecord,
  extractsOf,
  loadReductionsOf,
  type ReductionRow,
  saveReduction,
  saveReductions,
  TOPIC_OF_REDUCER,
  type Topic,
} from "./engine-data";
import { cachedSubjectMetadata, workflowSubjectSpace } from "./classification-data";
import { EVENTS } from "./events";
import type { Emit, TxRunner } from "./stage";
import { type EngineWorkflow, loadEngineWorkflow } from "./workflow-config";

const EXTERNAL_REDUCERS = new Set(["external", "queue"]);

/** The extracts a subject's (or user's) reducers see: its own, plus those of `#previous_subject_ids` subjects. */
export async function loadExtracts(
  client: EngineTx,
  topic: Topic,
  workflowId: number,
  targetId: number,
): Promise<{ extracts: ExtractRecord[]; metadata: Map<number, Record<string, unknown>> }> {
  const { byTarget, metadata } = await loadExtractsOf(client, topic, workflowId, [targetId]);
  return { extracts: byTarget.get(targetId) ?? [], metadata };
}

/** loadExtracts for many targets in a fixed number of queries. */
export async function loadExtractsOf(
  client: EngineTx,
  topic: Topic,
  workflowId: number,
  targetIds: number[],
): Promise<{ byTarget: Map<number, ExtractRecord[]>; metadata: Map<number, Record<string, unknown>> }> {
  // Which subjects' extracts each target sees.
  const sources = new Map<number, number[]>(targetIds.map((t) => [t, [t]]));
  const space = await workflowSubjectSpace(client, workflowId);
  if (topic === "subject") {
    const own = await cachedSubjectMetadata(client, space, targetIds);
    for (const t of targetIds) sources.set(t, [...new Set([t, ...previousSubjectIds(own.get(t) ?? {})])]);
  }
  const rows = await extractsOf(client, workflowId, COLUMN[topic], [...new Set([...sources.values()].flat())]);
  const bySource = new Map<number, ExtractRecord[]>();
  for (const e of rows) {
    const source = topic === "subject" ? e.subject_id : e.user_id!;
    if (!bySource.has(source)) bySource.set(source, []);
    bySource.get(source)!.push(extractRecord(e));
  }
  const byTarget = new Map(targetIds.map((t) => [t, sources.get(t)!.flatMap((s) => bySource.get(s) ?? [])]));
  const metadata = await cachedSubjectMetadata(client, space, [...new Set(rows.map((e) => e.subject_id))]);
  return { byTarget, metadata };
}

const MAX_LOCK_RETRIES = 5;

export interface ReductionTarget {
  workflowId: number;
  topic: Topic;
  targetId: number;
}

/**
 * Takes the transaction-scoped advisory locks that keep reductions of one subject (or user) from racing,
 * all in one statement and in one global order, so transactions that reduce several targets at once
 * never deadlock on them.
 */
export async function lockReductionTargets(client: Sql, targets: ReductionTarget[]): Promise<void> {
  if (!targets.length) return;
  await client.query(
    `SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended(x, 0) AS k FROM unnest($1::text[]) AS x ORDER BY 1) AS keys`,
    [targets.map((t) => `reduce:${t.workflowId}:${t.topic}:${t.targetId}`)],
  );
}

/**
 * Stage 2, extracts changed: runs every reducer of the topic over the subject's (or user's) extracts and
 * stores the reductions, one per subgroup. Reductions of one subject or user never race: the stage holds a
 * transaction-scoped advisory lock on it. Default mode re-reduces all matching extracts; running mode
 * passes only extracts not yet incorporated, records them, and saves under the optimistic lock.
 */
export async function reduceTarget(tx: TxRunner, workflowId: number, topic: Topic, targetId: number): Promise<void> {
  await tx((client, emit) => reduceTargets(client, emit, workflowId, topic, [targetId]));
}

/**
 * Stage 2 for many targets of one workflow and topic at once (a burst of classifications of one subject
 * is reduced once), in a fixed number of queries. A running reduction that someone saved between our read
 * and our write (the optimistic lock) is re-read and reduced again in the same transaction.
 */
export async function reduceTargets(client: EngineTx, emit: Emit, workflowId: number, topic: Topic, targetIds: number[]): Promise<void> {
  const targets = [...new Set(targetIds)].sort((a, b) => a - b);
  await lockReductionTargets(
    client,
    targets.map((targetId) => ({ workflowId, topic, targetId })),
  );
  const workflow = await loadEngineWorkflow(client, workflowId);
  if (!workflow || workflow.status === "halted") return;
  const reducers = Object.entries(workflow.reducers_config ?? {}).filter(
    ([, r]) => TOPIC_OF_REDUCER[r.topic ?? "reduce_by_subject"] === topic,
  );
  if (!reducers.length) return;
  const internal = reducers.filter(([, r]) => !EXTERNAL_REDUCERS.has(r.type));
  let pending = targets;
  for (let attempt = 1; internal.length && pending.length; attempt++) {
    if (attempt > MAX_LOCK_RETRIES)
      throw new Error(`running reductions of ${topic}s ${pending.join(", ")} in workflow ${workflowId} kept changing under us`);
    pending = await reduceOnce(client, topic, workflowId, pending, internal);
  }
  for (const targetId of targets) {
    for (const [key, config] of reducers) {
      if (EXTERNAL_REDUCERS.has(config.type))
        emit({ name: EVENTS.externalReduceRequested, data: { workflow_id: workflowId, topic, target_id: targetId, reducer_key: key } });
    }
    emit({ name: EVENTS.reductionsChanged, data: { workflow_id: workflowId, topic, target_id: targetId } });
  }
}

interface Reduced {
  targetId: number;
  key: string;
  subgroup: string;
  data: unknown;
  store: unknown;
  extractIds?: number[];
  previous?: ReductionRow;
}

/** One pass of the internal reducers over the targets; returns the targets whose running reductions lost the optimistic lock. */
async function reduceOnce(
  client: EngineTx,
  topic: Topic,
  workflowId: number,
  targets: number[],
  reducers: [string, NonNullable<EngineWorkflow["reducers_config"]>[string]][],
): Promise<number[]> {
  const { byTarget, metadata } = await loadExtractsOf(client, topic, workflowId, targets);
  const existing = await loadReductionsOf(
    client,
    topic,
    workflowId,
    targets,
    reducers.map(([key]) => key),
  );
  const running = reducers.some(([, c]) => (c.reduction_mode ?? "default_reduction") === "running_reduction");
  const incorporated = new Map<number, Set<number>>();
  if (running) {
    const ids = [...existing.values()].flat().map((r) => r.id);
    const { rows } = await client.query<{ reduction_id: number; extract_id: number }>(
      `SELECT reduction_id, extract_id FROM reduction_extracts WHERE reduction_kind = $1 AND reduction_id = ANY($2::int[])`,
      [topic, ids],
    );
    for (const r of rows) {
      if (!incorporated.has(r.reduction_id)) incorporated.set(r.reduction_id, new Set());
      incorporated.get(r.reduction_id)!.add(r.extract_id);
    }
  }
  const replaced: Reduced[] = [];
  const runningSaves: Reduced[] = [];
  for (const targetId of targets) {
    const extracts = byTarget.get(targetId) ?? [];
    for (const [key, config] of reducers) {
      const previousBySubgroup = new Map(
        existing
          .get(targetId)!
          .filter((r) => r.reducer_key === key)
          .map((r) => [r.subgroup, r]),
      );
      for (const [subgroup, group] of selectExtracts(config, extracts, metadata)) {
        const previous = previousBySubgroup.get(subgroup);
        if ((config.reduction_mode ?? "default_reduction") !== "running_reduction") {
          const out = reduce(config, group, null);
          if (!isEmptyReduction(out.data)) replaced.push({ targetId, key, subgroup, data: out.data, store: out.store ?? null });
          continue;
        }
        const fresh = newExtractsFor(group, previous ? (incorporated.get(previous.id) ?? new Set()) : new Set());
        if (!fresh.length) continue;
        const out = reduce(config, fresh, previous ? { data: previous.data ?? {}, store: previous.store ?? {} } : null);
        if (isEmptyReduction(out.data) && !previous) continue;
        runningSaves.push({
          targetId,
          key,
          subgroup,
          data: out.data,
          store: out.store ?? null,
          extractIds: fresh.map((e) => e.id),
          previous,
        });
      }
    }
  }
  await saveReductions(client, topic, workflowId, replaced);
  const conflicted = new Set<number>();
  const recorded: { reductionId: number; extractIds: number[] }[] = [];
  for (const r of runningSaves) {
    if (conflicted.has(r.targetId)) continue;
    const id = await saveReduction(
      client,
      topic,
      { workflowId, targetId: r.targetId, reducerKey: r.key, subgroup: r.subgroup, data: r.data, store: r.store },
      r.previous?.lock_version ?? -1,
    );
    if (id === null) conflicted.add(r.targetId);
    else recorded.push({ reductionId: id, extractIds: r.extractIds! });
  }
  if (recorded.length) {
    await client.query(
      `INSERT INTO reduction_extracts (reduction_kind, reduction_id, extract_id) SELECT $1, r, e
        FROM unnest($2::int[], $3::int[]) AS x(r, e) ON CONFLICT DO NOTHING`,
      [topic, recorded.flatMap((r) => r.extractIds.map(() => r.reductionId)), recorded.flatMap((r) => r.extractIds)],
    );
  }
  return [...conflicted];
}
