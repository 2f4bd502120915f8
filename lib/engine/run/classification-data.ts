import type { Sql } from "@/lib/db/sql";
import { groupAnnotations, type ClassificationData, type SubjectMetadata } from "@/lib/engine/types";
import { scalarText } from "@/lib/text/scalar-text";

// What the stages see of a classification: the contract's classification data shape, built from component
// A's classifications table, or from a classification an external forwarder posted to the engine.

/**
 * Subject metadata as the engine keeps it: copied from component A the first time the engine operates on
 * the subject, and not re-read after (the contract's cache; an admin refresh re-reads it). Subjects that
 * component A does not have (forwarded classifications of another platform) cache what the forwarder sent.
 */
// Within one transaction the stages ask for the same subjects again and again: remember them per client.
const seen = new WeakMap<Sql, Map<number, SubjectMetadata>>();

export async function cachedSubjectMetadata(
  client: Sql,
  subjectIds: number[],
  sent: Map<number, SubjectMetadata> = new Map(),
): Promise<Map<number, SubjectMetadata>> {
  let memo = seen.get(client);
  if (!memo) seen.set(client, (memo = new Map()));
  const ids = [...new Set(subjectIds)];
  const missing = ids.filter((id) => !memo.has(id));
  if (missing.length) for (const [id, m] of await readSubjectMetadata(client, missing, sent)) memo.set(id, m);
  return new Map(ids.filter((id) => memo.has(id)).map((id) => [id, memo.get(id)!]));
}

/** Forgets what cachedSubjectMetadata remembered for a client (its transaction ended; the connection goes back to the pool). */
export function forgetSubjectMetadata(client: Sql) {
  seen.delete(client);
}

async function readSubjectMetadata(client: Sql, ids: number[], sent: Map<number, SubjectMetadata>): Promise<Map<number, SubjectMetadata>> {
  const { rows } = await client.query<{ id: number; metadata: SubjectMetadata }>(
    `WITH fresh AS (
       INSERT INTO engine_subjects (id, metadata)
       SELECT i, coalesce(s.metadata, f.m, '{}') FROM unnest($1::int[]) AS i
       LEFT JOIN subjects s ON s.id = i
       LEFT JOIN LATERAL (SELECT (x.m) AS m FROM unnest($2::int[], $3::jsonb[]) AS x(id, m) WHERE x.id = i LIMIT 1) f ON true
       ON CONFLICT (id) DO NOTHING RETURNING id, metadata)
     SELECT id, metadata FROM fresh UNION ALL SELECT id, metadata FROM engine_subjects WHERE id = ANY($1::int[])`,
    [ids, [...sent.keys()], [...sent.values()].map((m) => JSON.stringify(m))],
  );
  return new Map(rows.map((r) => [r.id, r.metadata ?? {}]));
}

/** Re-reads subjects' metadata from component A into the cache (the admin-triggered refresh). */
export async function refreshSubjectMetadata(client: Sql, workflowId: number): Promise<number> {
  const res = await client.query(
    `UPDATE engine_subjects es SET metadata = s.metadata, fetched_at = now() FROM subjects s
     WHERE s.id = es.id AND es.id IN (SELECT DISTINCT subject_id FROM extracts WHERE workflow_id = $1)`,
    [workflowId],
  );
  return res.rowCount ?? 0;
}

interface Row {
  id: number;
  project_id: number;
  workflow_id: number;
  user_id: number | null;
  subject_ids: number[];
  annotations: unknown;
  metadata: Record<string, unknown>;
  workflow_version: string;
  created_at: Date;
  completed: boolean;
  subject_created_at?: Date | null;
  subject_updated_at?: Date | null;
}

export type EngineClassification = ClassificationData & { created_at: string };

/** A classification as the engine sees it, or null when neither component A nor the inbox has it (or it is incomplete). */
export async function loadClassificationData(client: Sql, classificationId: number): Promise<EngineClassification | null> {
  return (await loadClassificationsData(client, [classificationId])).get(classificationId) ?? null;
}

/**
 * Classifications as the engine sees them, by id, in a fixed number of queries whatever their number:
 * component A's, then those an external forwarder posted (engine_classifications) for ids A lacks.
 * Missing and incomplete ones are left out.
 */
export async function loadClassificationsData(client: Sql, classificationIds: number[]): Promise<Map<number, EngineClassification>> {
  const ids = [...new Set(classificationIds)];
  const { rows } = await client.query<Row>(
    `SELECT c.id, c.project_id, c.workflow_id, c.user_id, c.subject_ids, c.annotations, c.metadata, c.workflow_version, c.created_at, c.completed,
            s.created_at AS subject_created_at, s.updated_at AS subject_updated_at
     FROM classifications c LEFT JOIN subjects s ON s.id = c.subject_ids[1] WHERE c.id = ANY($1::int[])`,
    [ids],
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  const sent = new Map<number, { id: number; metadata?: SubjectMetadata; created_at?: string; updated_at?: string }>();
  if (missing.length) {
    // biome-ignore lint/suspicious/noExplicitAny: a classification another platform forwarded: JSON of any shape, each field converted where read
    const inbox = await client.query<{ id: number; data: Record<string, any>; received_at: Date }>(
      `SELECT id, data, received_at FROM engine_classifications WHERE id = ANY($1::int[])`,
      [missing],
    );
    const forwarded: Row[] = [];
    for (const { id, data: d, received_at } of inbox.rows) {
      if (!d) continue;
      const subjectIds: number[] = d.subject_id != null ? [Number(d.subject_id)] : (d.subject_ids ?? []).map(Number);
      if (d.subject && typeof d.subject === "object") sent.set(id, d.subject);
      forwarded.push({
        id,
        project_id: Number(d.project_id ?? 0),
        workflow_id: Number(d.workflow_id),
        user_id: d.user_id == null ? null : Number(d.user_id),
        subject_ids: subjectIds,
        annotations: d.annotations ?? [],
        metadata: d.metadata ?? {},
        workflow_version: scalarText(d.workflow_version ?? d.metadata?.workflow_version),
        created_at: d.created_at ? new Date(d.created_at) : received_at,
        completed: true,
      });
    }
    // A forwarded classification of a subject component A has: its timestamps come from there too.
    const known = forwarded.filter((c) => !sent.has(c.id) && c.subject_ids[0]);
    if (known.length) {
      const s = await client.query<{ id: number; created_at: Date; updated_at: Date }>(
        `SELECT id, created_at, updated_at FROM subjects WHERE id = ANY($1::int[])`,
        [known.map((c) => c.subject_ids[0])],
      );
      const byId = new Map(s.rows.map((r) => [r.id, r]));
      for (const c of known) {
        c.subject_created_at = byId.get(c.subject_ids[0])?.created_at ?? null;
        c.subject_updated_at = byId.get(c.subject_ids[0])?.updated_at ?? null;
      }
    }
    rows.push(...forwarded);
  }
  const complete = rows.filter((c) => c.completed);
  // One subject per classification, as the established engine does: the first one linked.
  const sentMetadata = new Map<number, SubjectMetadata>();
  for (const c of complete) {
    const m = sent.get(c.id)?.metadata;
    if (m && c.subject_ids[0]) sentMetadata.set(c.subject_ids[0], m);
  }
  const metadata = await cachedSubjectMetadata(client, complete.map((c) => c.subject_ids[0]).filter(Boolean), sentMetadata);
  const out = new Map<number, EngineClassification>();
  for (const c of complete) {
    const subjectId = c.subject_ids[0];
    const sentSubject = sent.get(c.id);
    out.set(c.id, {
      id: c.id,
      project_id: c.project_id,
      workflow_id: c.workflow_id,
      subject_id: subjectId,
      user_id: c.user_id,
      workflow_version: c.workflow_version,
      annotations: groupAnnotations(c.annotations as never),
      metadata: c.metadata ?? {},
      subject: {
        id: subjectId,
        metadata: metadata.get(subjectId) ?? {},
        created_at: c.subject_created_at?.toISOString() ?? sentSubject?.created_at ?? null,
        updated_at: c.subject_updated_at?.toISOString() ?? sentSubject?.updated_at ?? null,
      },
      created_at: new Date(c.created_at).toISOString(),
    } as EngineClassification);
  }
  return out;
}
