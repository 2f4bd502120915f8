import type { Sql } from "@/lib/db/sql";
import { isEmptyReduction, newExtractsFor, previousSubjectIds, reduce, selectExtracts } from "@/lib/engine/reducers";
import type { ExtractRecord } from "@/lib/engine/types";
import { cachedSubjectMetadata } from "./classification-data";
import { EVENTS } from "./events";
import type { TxRunner } from "./stage";
import { loadEngineWorkflow } from "./workflow-config";

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
export async function loadReductions(client: Sql, topic: Topic, workflowId: number, targetId: number, reducerKey?: string): Promise<ReductionRow[]> {
  const { rows } = await client.query<ReductionRow>(
    `SELECT id, reducer_key, subgroup, data, store, lock_version FROM ${TABLE[topic]} WHERE workflow_id = $1 AND ${COLUMN[topic]} = $2 AND ($3::text IS NULL OR reducer_key = $3) ORDER BY id`,
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
  const values = [r.workflowId, r.targetId, r.reducerKey, r.subgroup, JSON.stringify(r.data ?? null), r.store == null ? null : JSON.stringify(r.store), expectedVersion ?? null];
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

/** The extracts a subject's (or user's) reducers see: its own, plus those of `#previous_subject_ids` subjects. */
export async function loadExtracts(client: Sql, topic: Topic, workflowId: number, targetId: number): Promise<{ extracts: ExtractRecord[]; metadata: Map<number, Record<string, unknown>> }> {
  let subjectIds: number[] = [];
  if (topic === "subject") {
    const own = await cachedSubjectMetadata(client, [targetId]);
    subjectIds = [targetId, ...previousSubjectIds(own.get(targetId) ?? {})];
  }
  const { rows } = await client.query(
    topic === "subject"
      ? `SELECT id, classification_id, classification_at, subject_id, user_id, workflow_id, extractor_key, data FROM extracts WHERE workflow_id = $1 AND subject_id = ANY($2::int[])`
      : `SELECT id, classification_id, classification_at, subject_id, user_id, workflow_id, extractor_key, data FROM extracts WHERE workflow_id = $1 AND user_id = $2`,
    [workflowId, topic === "subject" ? subjectIds : targetId],
  );
  const extracts: ExtractRecord[] = rows.map((e) => ({
    id: e.id,
    classificationId: e.classification_id,
    classificationAt: e.classification_at,
    subjectId: e.subject_id,
    userId: e.user_id,
    workflowId: e.workflow_id,
    extractorKey: e.extractor_key,
    data: e.data,
  }));
  const metadata = await cachedSubjectMetadata(client, [...new Set(extracts.map((e) => e.subjectId))]);
  return { extracts, metadata };
}

const MAX_LOCK_RETRIES = 5;

/**
 * Stage 2, extracts changed: runs every reducer of the topic over the subject's (or user's) extracts and
 * stores the reductions, one per subgroup. Reductions of one subject or user never race: the stage holds a
 * transaction-scoped advisory lock on it. Default mode re-reduces all matching extracts; running mode
 * passes only extracts not yet incorporated, records them, and saves under the optimistic lock.
 */
export async function reduceTarget(tx: TxRunner, workflowId: number, topic: Topic, targetId: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const saved = await tx(async (client, emit) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`reduce:${workflowId}:${topic}:${targetId}`]);
      const workflow = await loadEngineWorkflow(client, workflowId);
      if (!workflow || workflow.status === "halted") return true;
      const reducers = Object.entries(workflow.reducers_config ?? {}).filter(([, r]) => TOPIC_OF_REDUCER[r.topic ?? "reduce_by_subject"] === topic);
      if (!reducers.length) return true;
      const { extracts, metadata } = await loadExtracts(client, topic, workflowId, targetId);
      for (const [key, config] of reducers) {
        if (EXTERNAL_REDUCERS.has(config.type)) {
          emit({ name: EVENTS.externalReduceRequested, data: { workflow_id: workflowId, topic, target_id: targetId, reducer_key: key } });
          continue;
        }
        const groups = selectExtracts(config, extracts, metadata);
        const existing = new Map((await loadReductions(client, topic, workflowId, targetId, key)).map((r) => [r.subgroup, r]));
        for (const [subgroup, group] of groups) {
          const ok = await reduceGroup(client, topic, { workflowId, targetId, key, subgroup, config, group, previous: existing.get(subgroup) });
          if (!ok) return false;
        }
      }
      emit({ name: EVENTS.reductionsChanged, data: { workflow_id: workflowId, topic, target_id: targetId } });
      return true;
    });
    if (saved) return;
    if (attempt >= MAX_LOCK_RETRIES) throw new Error(`running reduction of ${topic} ${targetId} in workflow ${workflowId} kept changing under us`);
  }
}

async function reduceGroup(
  client: Sql,
  topic: Topic,
  g: { workflowId: number; targetId: number; key: string; subgroup: string; config: any; group: ExtractRecord[]; previous?: ReductionRow },
): Promise<boolean> {
  const base = { workflowId: g.workflowId, targetId: g.targetId, reducerKey: g.key, subgroup: g.subgroup };
  if ((g.config.reduction_mode ?? "default_reduction") !== "running_reduction") {
    const out = reduce(g.config, g.group, null);
    if (isEmptyReduction(out.data)) return true;
    await saveReduction(client, topic, { ...base, data: out.data, store: out.store ?? null });
    return true;
  }
  const incorporated = new Set<number>();
  if (g.previous) {
    const { rows } = await client.query<{ extract_id: number }>(`SELECT extract_id FROM reduction_extracts WHERE reduction_kind = $1 AND reduction_id = $2`, [topic, g.previous.id]);
    for (const r of rows) incorporated.add(r.extract_id);
  }
  const fresh = newExtractsFor(g.group, incorporated);
  if (!fresh.length) return true;
  const out = reduce(g.config, fresh, g.previous ? { data: g.previous.data ?? {}, store: g.previous.store ?? {} } : null);
  if (isEmptyReduction(out.data) && !g.previous) return true;
  const id = await saveReduction(client, topic, { ...base, data: out.data, store: out.store ?? null }, g.previous?.lock_version ?? -1);
  if (id === null) return false;
  await client.query(
    `INSERT INTO reduction_extracts (reduction_kind, reduction_id, extract_id) SELECT $1, $2, e FROM unnest($3::int[]) AS e ON CONFLICT DO NOTHING`,
    [topic, id, fresh.map((e) => e.id)],
  );
  return true;
}
