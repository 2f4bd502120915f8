import type { Sql } from "@/lib/db/sql";
import type { EngineTx } from "./engine-tx";
import { isEmptyReduction, newExtractsFor, previousSubjectIds, reduce, selectExtracts } from "@/lib/engine/reducers";
import type { ExtractRecord } from "@/lib/engine/types";
import { cachedSubjectMetadata, workflowSubjectSpace } from "./classification-data";
import { EVENTS } from "./events";
import type { Emit, TxRunner } from "./stage";
import { type EngineWorkflow, loadEngineWorkflow } from "./workflow-config";

export type Topic = "subject" | "user";
export const TOPIC_OF_REDUCER = { reduce_by_subject: "subject", reduce_by_user: "user" } as const;
const TABLE = { subject: "subject_reductions", user: "user_reductions" } as const;
const COLUMN = { subject: "subject_id", user: "user_id" } as const;
const EXTERNAL_REDUCERS = new Set(["external", "queue"]);

export interface ReductionRow {
  id: number;
  reducer_key: string;
  subgroup: string;
  data: Record<string, unknown> | null;
  store: Record<string, unknown> | null;
  lock_version: number;
}

/** One reduction per (workflow, subject or user, reducer key, subgroup); optimistic lock on lock_version. */
export async function loadReductions(
  client: Sql,
  topic: Topic,
  workflowId: number,
  targetId: number,
  reducerKey?: string,
): Promise<ReductionRow[]> {
  const { rows } = await client.query<ReductionRow>(
    `SELECT id, reducer_key, subgroup, data, store, lock_version FROM ${TABLE[topic]} WHERE workflow_id = $1 AND ${COLUMN[topic]} = $2
      AND ($3::text IS NULL OR reducer_key = $3) ORDER BY id`,
    [workflowId, targetId, reducerKey ?? null],
  );
  return rows;
}

/** Inserts or replaces a reduction's data and store; with expectedVersion, only if nobody saved it since (else false). */
export async function saveReduction(
  client: Sql,
  topic: Topic,
  r: { workflowId: number; targetId: number; reducerKey: string; subgroup: string; data: unknown; store: unknown },
  expectedVersion?: number,
): Promise<number | null> {
  const values = [
    r.workflowId,
    r.targetId,
    r.reducerKey,
    r.subgroup,
    JSON.stringify(r.data ?? null),
    r.store == null ? null : JSON.stringify(r.store),
    expectedVersion ?? null,
  ];
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO ${TABLE[topic]} AS t (workflow_id, ${COLUMN[topic]}, reducer_key, subgroup, data, store, updated_at)
     SELECT $1, $2, $3, $4, $5::jsonb, $6::jsonb, now() WHERE $7::int IS NULL OR $7::int = -1
     ON CONFLICT (workflow_id, ${COLUMN[topic]}, reducer_key, subgroup) DO UPDATE
       SET data = excluded.data, store = excluded.store, lock_version = t.lock_version + 1, updated_at = now()
       WHERE $7::int IS NULL
     RETURNING id`,
    values,
  );
  if (rows[0]) return rows[0].id;
  if (expectedVersion === undefined || expectedVersion === -1) return null;
  const upd = await client.query<{ id: number }>(
    `UPDATE ${TABLE[topic]} SET data = $5::jsonb, store = $6::jsonb, lock_version = lock_version + 1, updated_at = now()
     WHERE workflow_id = $1 AND ${COLUMN[topic]} = $2 AND reducer_key = $3 AND subgroup = $4 AND lock_version = $7 RETURNING id`,
    values,
  );
  return upd.rows[0]?.id ?? null;
}

/** Reductions of many targets in one query, by target id. */
export async function loadReductionsOf(
  client: Sql,
  topic: Topic,
  workflowId: number,
  targetIds: number[],
  reducerKeys?: string[],
): Promise<Map<number, ReductionRow[]>> {
  const { rows } = await client.query<ReductionRow & { target_id: number }>(
    `SELECT id, ${COLUMN[topic]} AS target_id, reducer_key, subgroup, data, store, lock_version FROM ${TABLE[topic]}
     WHERE workflow_id = $1 AND ${COLUMN[topic]} = ANY($2::int[]) AND ($3::text[] IS NULL OR reducer_key = ANY($3::text[])) ORDER BY id`,
    [workflowId, targetIds, reducerKeys ?? null],
  );
  const out = new Map<number, ReductionRow[]>(targetIds.map((t) => [t, []]));
  for (const { target_id, ...r } of rows) out.get(target_id)?.push(r);
  return out;
}

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
  const { rows } = await client.query(
    `SELECT id, classification_id, classification_at, subject_id, user_id, workflow_id, extractor_key, data FROM extracts
      WHERE workflow_id = $1 AND ${COLUMN[topic]} = ANY($2::int[])`,
    [workflowId, [...new Set([...sources.values()].flat())]],
  );
  const bySource = new Map<number, ExtractRecord[]>();
  for (const e of rows) {
    const source = topic === "subject" ? e.subject_id : e.user_id;
    if (!bySource.has(source)) bySource.set(source, []);
    bySource.get(source)!.push({
      id: e.id,
      classificationId: e.classification_id,
      classificationAt: e.classification_at,
      subjectId: e.subject_id,
      userId: e.user_id,
      workflowId: e.workflow_id,
      extractorKey: e.extractor_key,
      data: e.data,
    });
  }
  const byTarget = new Map(targetIds.map((t) => [t, sources.get(t)!.flatMap((s) => bySource.get(s) ?? [])]));
  const metadata = await cachedSubjectMetadata(client, space, [...new Set(rows.map((e) => e.subject_id as number))]);
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

/** Inserts or replaces default-mode reductions in one statement. */
async function saveReductions(client: Sql, topic: Topic, workflowId: number, reduced: Reduced[]): Promise<void> {
  if (!reduced.length) return;
  await client.query(
    `INSERT INTO ${TABLE[topic]} AS t (workflow_id, ${COLUMN[topic]}, reducer_key, subgroup, data, store, updated_at)
     SELECT $1, x.target, x.k, x.g, x.d, x.s, now() FROM unnest($2::int[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[]) AS x(target, k, g, d, s)
     ON CONFLICT (workflow_id, ${COLUMN[topic]}, reducer_key, subgroup) DO UPDATE
       SET data = excluded.data, store = excluded.store, lock_version = t.lock_version + 1, updated_at = now()`,
    [
      workflowId,
      reduced.map((r) => r.targetId),
      reduced.map((r) => r.key),
      reduced.map((r) => r.subgroup),
      reduced.map((r) => JSON.stringify(r.data ?? null)),
      reduced.map((r) => (r.store == null ? null : JSON.stringify(r.store))),
    ],
  );
}
