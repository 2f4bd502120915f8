import type { Sql } from "@/lib/db/sql";
import { wireExtract } from "@/lib/engine/reducers";
import type { ExtractRecord } from "@/lib/engine/types";

// The decision engine's data: extracts and reductions, read and written here only (the stages, the engine's
// HTTP API and the imports call these), so each table's SQL and its row mapping exist once.

// ---- extracts

/** An extracts row as stored. */
export interface ExtractRow {
  id: number;
  classification_id: number;
  classification_at: Date;
  subject_id: number;
  user_id: number | null;
  workflow_id: number;
  extractor_key: string;
  data: unknown;
  created_at: Date;
  updated_at: Date;
}

/** A row as the reducers see it. */
export const extractRecord = (e: ExtractRow): ExtractRecord => ({
  id: e.id,
  classificationId: e.classification_id,
  classificationAt: e.classification_at,
  subjectId: e.subject_id,
  userId: e.user_id,
  workflowId: e.workflow_id,
  extractorKey: e.extractor_key,
  data: e.data as ExtractRecord["data"],
});

/** A row as the engine's API answers it. */
export const wireExtractRow = (e: ExtractRow) => ({
  ...wireExtract(extractRecord(e)),
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

export interface NewExtract {
  workflowId: number;
  subjectId: number;
  userId: number | null;
  classificationId: number;
  classificationAt: string | Date;
  extractorKey: string;
  data: unknown;
}

/** Upserts one extract (unique per workflow, classification and extractor key; re-extraction replaces it). */
export async function upsertExtract(client: Sql, e: NewExtract): Promise<number> {
  return (await upsertExtracts(client, [e]))[0];
}

/** Upserts extracts in one statement (each workflow, classification and extractor key at most once); returns their ids. */
export async function upsertExtracts(client: Sql, extracts: NewExtract[]): Promise<number[]> {
  if (!extracts.length) return [];
  const col = <T>(f: (e: NewExtract) => T) => extracts.map(f);
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO extracts (workflow_id, subject_id, user_id, classification_id, classification_at, extractor_key, data, updated_at)
     SELECT w, s, u, c, a, k, d, now()
       FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::timestamptz[], $6::text[], $7::jsonb[]) AS x(w, s, u, c, a, k, d)
     ON CONFLICT (workflow_id, classification_id, extractor_key) DO UPDATE SET data = excluded.data, subject_id = excluded.subject_id,
       user_id = excluded.user_id, classification_at = excluded.classification_at, updated_at = now()
     RETURNING id`,
    [
      col((e) => e.workflowId),
      col((e) => e.subjectId),
      col((e) => e.userId),
      col((e) => e.classificationId),
      col((e) => new Date(e.classificationAt)),
      col((e) => e.extractorKey),
      col((e) => (e.data === null || e.data === undefined ? null : JSON.stringify(e.data))),
    ],
  );
  return rows.map((r) => r.id);
}

/** A workflow's extracts of these subjects (or users). */
export async function extractsOf(client: Sql, workflowId: number, column: "subject_id" | "user_id", ids: number[]): Promise<ExtractRow[]> {
  const { rows } = await client.query<ExtractRow>(
    `SELECT * FROM extracts WHERE workflow_id = $1 AND ${column === "subject_id" ? "subject_id" : "user_id"} = ANY($2::int[])`,
    [workflowId, ids],
  );
  return rows;
}

/** A subject's extracts (of one extractor, or all) in classification order. */
export async function subjectExtracts(
  client: Sql,
  workflowId: number,
  subjectId: number,
  extractorKey: string | null,
): Promise<ExtractRow[]> {
  const { rows } = await client.query<ExtractRow>(
    `SELECT * FROM extracts WHERE workflow_id = $1 AND subject_id = $2 AND ($3::text IS NULL OR extractor_key = $3)
      ORDER BY classification_at, classification_id, extractor_key`,
    [workflowId, subjectId, extractorKey],
  );
  return rows;
}

/**
 * A keyset page of extracts: the workflow's, narrowed by the conditions given (only those: each combination
 * is its own prepared statement, planned for the indexes it can use), after `lastId` in id order.
 */
export function extractsPageSql(
  workflowId: number,
  lastId: number,
  limit: number,
  narrow: { subject_id?: number | null; user_id?: number | null; extractor_key?: string | null },
) {
  const values: unknown[] = [workflowId, lastId];
  const conditions = ["workflow_id = $1", "id > $2"];
  for (const [column, value] of Object.entries(narrow)) {
    if (value === null || value === undefined) continue;
    values.push(value);
    conditions.push(`${column} = $${values.length}`);
  }
  values.push(limit);
  return { text: `SELECT * FROM extracts WHERE ${conditions.join(" AND ")} ORDER BY id LIMIT $${values.length}`, values };
}

/** The extract a subject has from a volunteer (with classification_id and classification_at), when there is exactly one. */
export async function onlyExtractFrom(client: Sql, workflowId: number, extractorKey: string, subjectId: number, userId: number | null) {
  const { rows } = await client.query<{ classification_id: number; classification_at: Date }>(
    `SELECT classification_id, classification_at FROM extracts WHERE workflow_id = $1 AND extractor_key = $2 AND subject_id = $3
      AND user_id IS NOT DISTINCT FROM $4`,
    [workflowId, extractorKey, subjectId, userId],
  );
  return rows.length === 1 ? rows[0] : null;
}

/** When the workflow's extract of a classification by this extractor was made (null: none yet). */
export async function extractClassificationAt(client: Sql, workflowId: number, classificationId: number, extractorKey: string) {
  const { rows } = await client.query<{ classification_at: Date }>(
    `SELECT classification_at FROM extracts WHERE workflow_id = $1 AND classification_id = $2 AND extractor_key = $3`,
    [workflowId, classificationId, extractorKey],
  );
  return rows[0]?.classification_at ?? null;
}

// ---- reductions

export type Topic = "subject" | "user";
export const TOPIC_OF_REDUCER = { reduce_by_subject: "subject", reduce_by_user: "user" } as const;
export const TABLE = { subject: "subject_reductions", user: "user_reductions" } as const;
export const COLUMN = { subject: "subject_id", user: "user_id" } as const;

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

/** Inserts or replaces default-mode reductions in one statement. */
export async function saveReductions(
  client: Sql,
  topic: Topic,
  workflowId: number,
  reduced: { targetId: number; key: string; subgroup: string; data: unknown; store: unknown }[],
): Promise<void> {
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

/** The columns a reduction is answered with by the engine's API. */
export const reductionColumns = (topic: Topic) =>
  `id, reducer_key, ${COLUMN[topic]}, workflow_id, subgroup, data, store, created_at, updated_at`;

/**
 * A subject's or a volunteer's reductions (of every reducer, or one): all of them by reducer and subgroup,
 * or a keyset page in id order after `page.lastId`.
 */
export async function reductionsFor(
  client: Sql,
  topic: Topic,
  workflowId: number,
  targetId: number,
  reducerKey: string | null,
  page?: { lastId: number; limit: number },
) {
  const select = `SELECT ${reductionColumns(topic)} FROM ${TABLE[topic]} WHERE workflow_id = $1 AND ${COLUMN[topic]} = $2 AND ($3::text IS NULL OR reducer_key = $3)`;
  const { rows } = page
    ? await client.query<{ id: number }>(`${select} AND id > $4 ORDER BY id LIMIT $5`, [
        workflowId,
        targetId,
        reducerKey,
        page.lastId,
        page.limit,
      ])
    : await client.query<{ id: number }>(`${select} ORDER BY reducer_key, subgroup`, [workflowId, targetId, reducerKey]);
  return rows;
}

/** One reduction as the engine's API answers it. */
export async function reductionOf(client: Sql, topic: Topic, workflowId: number, targetId: number, reducerKey: string, subgroup: string) {
  const { rows } = await client.query(
    `SELECT ${reductionColumns(topic)} FROM ${TABLE[topic]} WHERE workflow_id = $1 AND ${COLUMN[topic]} = $2 AND reducer_key = $3 AND subgroup = $4`,
    [workflowId, targetId, reducerKey, subgroup],
  );
  return rows[0];
}
