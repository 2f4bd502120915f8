import type { Sql } from "@/lib/db/sql";
import type { EngineTx } from "./engine-tx";
import { groupAnnotations, type ClassificationData, type SubjectMetadata } from "@/lib/engine/types";
import { scalarText } from "@/lib/text/scalar-text";
import { subjectSpace, subjectsOutside } from "./boundary";
import { loadEngineWorkflow } from "./workflow-config";

// What the stages see of a classification: the contract's classification data shape, built from component
// A's classifications table, or from a classification an external forwarder posted to the engine.

/**
 * Subject metadata as the engine keeps it: copied from component A the first time the engine operates on
 * the subject, and not re-read after (the contract's cache; an admin refresh re-reads it). A workflow
 * without a project keeps what its forwarder sent in a space of its own (`space`, its id: see
 * subjectSpace), never mixed with component A's subjects (space 0), whose metadata only A supplies.
 */
export async function cachedSubjectMetadata(
  tx: EngineTx,
  space: number,
  subjectIds: number[],
  sent: Map<number, SubjectMetadata> = new Map(),
): Promise<Map<number, SubjectMetadata>> {
  const memo = tx.subjects;
  const ids = [...new Set(subjectIds)];
  const missing = ids.filter((id) => !memo.has(`${space}:${id}`));
  if (missing.length) for (const [id, m] of await readSubjectMetadata(tx, space, missing, sent)) memo.set(`${space}:${id}`, m);
  return new Map(ids.filter((id) => memo.has(`${space}:${id}`)).map((id) => [id, memo.get(`${space}:${id}`)!]));
}

/** The subject space of a workflow the stages work on (its own when the engine has no configuration for it). */
export async function workflowSubjectSpace(client: Sql, workflowId: number): Promise<number> {
  const workflow = await loadEngineWorkflow(client, workflowId);
  return workflow ? subjectSpace(workflow) : workflowId;
}

async function readSubjectMetadata(
  client: Sql,
  space: number,
  ids: number[],
  sent: Map<number, SubjectMetadata>,
): Promise<Map<number, SubjectMetadata>> {
  // Component A's subjects come from its subjects table (an id it lacks has no metadata and is not cached);
  // an external space's from what its forwarder sent (or nothing), never from component A.
  const { rows } = await client.query<{ id: number; metadata: SubjectMetadata }>(
    space === 0
      ? `WITH fresh AS (
           INSERT INTO engine_subjects (space, id, metadata) SELECT 0, s.id, s.metadata FROM subjects s WHERE s.id = ANY($1::int[])
           ON CONFLICT (space, id) DO NOTHING RETURNING id, metadata)
         SELECT id, metadata FROM fresh UNION ALL SELECT id, metadata FROM engine_subjects WHERE space = 0 AND id = ANY($1::int[])`
      : `WITH fresh AS (
           INSERT INTO engine_subjects (space, id, metadata)
           SELECT $4, i, coalesce(f.m, '{}') FROM unnest($1::int[]) AS i
           LEFT JOIN LATERAL (SELECT (x.m) AS m FROM unnest($2::int[], $3::jsonb[]) AS x(id, m) WHERE x.id = i LIMIT 1) f ON true
           ON CONFLICT (space, id) DO NOTHING RETURNING id, metadata)
         SELECT id, metadata FROM fresh UNION ALL SELECT id, metadata FROM engine_subjects WHERE space = $4 AND id = ANY($1::int[])`,
    space === 0 ? [ids] : [ids, [...sent.keys()], [...sent.values()].map((m) => JSON.stringify(m)), space],
  );
  return new Map(rows.map((r) => [r.id, r.metadata ?? {}]));
}

/** Re-reads subjects' metadata from component A into the cache (the admin-triggered refresh). */
export async function refreshSubjectMetadata(client: Sql, workflowId: number): Promise<number> {
  const res = await client.query(
    `UPDATE engine_subjects es SET metadata = s.metadata, fetched_at = now() FROM subjects s
     WHERE es.space = 0 AND s.id = es.id AND es.id IN (SELECT DISTINCT subject_id FROM extracts WHERE workflow_id = $1)`,
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

/**
 * Which classification a stage works on: its id and its workflow. Component A's classification of that
 * workflow, else the one a forwarder posted for that workflow: a forwarded id means something only within
 * its workflow. (A reference without a workflow, from a job queued before references carried one, finds
 * component A's classification only.)
 */
export interface ClassificationRef {
  id: number;
  workflowId?: number;
}

/** A classification as the engine sees it, or null when neither component A nor the inbox has it (or it is incomplete). */
export async function loadClassificationData(client: EngineTx, ref: ClassificationRef): Promise<EngineClassification | null> {
  return (await loadClassificationsData(client, [ref]))[0] ?? null;
}

const refKey = (id: number, workflowId: number) => `${workflowId}:${id}`;

/**
 * Classifications as the engine sees them, in a fixed number of queries whatever their number: component
 * A's, then those an external forwarder posted (engine_classifications) for the references A lacks. Each
 * at most once; missing and incomplete ones are left out, and so is a forwarded classification of a
 * workflow with a project that names a subject outside that project (POST /engine/classifications refuses
 * those; rows stored before it did are skipped here).
 */
export async function loadClassificationsData(client: EngineTx, refs: ClassificationRef[]): Promise<EngineClassification[]> {
  const ids = [...new Set(refs.map((r) => r.id))];
  const { rows: platform } = await client.query<Row>(
    `SELECT c.id, c.project_id, c.workflow_id, c.user_id, c.subject_ids, c.annotations, c.metadata, c.workflow_version, c.created_at, c.completed,
            s.created_at AS subject_created_at, s.updated_at AS subject_updated_at
     FROM classifications c LEFT JOIN subjects s ON s.id = c.subject_ids[1] WHERE c.id = ANY($1::int[])`,
    [ids],
  );
  const byId = new Map(platform.map((r) => [r.id, r]));
  const rows: Row[] = [];
  const done = new Set<string>();
  const missing: { id: number; workflowId: number }[] = [];
  for (const ref of refs) {
    const c = byId.get(ref.id);
    if (c && (ref.workflowId === undefined || ref.workflowId === c.workflow_id)) {
      if (!done.has(refKey(c.id, c.workflow_id))) rows.push(c);
      done.add(refKey(c.id, c.workflow_id));
    } else if (ref.workflowId !== undefined && !done.has(refKey(ref.id, ref.workflowId))) {
      done.add(refKey(ref.id, ref.workflowId));
      missing.push({ id: ref.id, workflowId: ref.workflowId });
    }
  }
  const out: EngineClassification[] = rows.filter((c) => c.completed).map((c) => engineClassification(c, null, new Map()));
  await attachPlatformMetadata(client, out);
  if (missing.length) out.push(...(await loadForwarded(client, missing)));
  return out;
}

/** Component A's classifications' subject metadata (space 0). */
async function attachPlatformMetadata(client: EngineTx, list: EngineClassification[]) {
  const metadata = await cachedSubjectMetadata(client, 0, list.map((c) => c.subject_id).filter(Boolean));
  for (const c of list) c.subject.metadata = metadata.get(c.subject_id) ?? {};
}

/**
 * Classifications forwarders posted, by (workflow, id). For a workflow of a project, the subject must be
 * one of that project's and everything about it (metadata, timestamps) comes from component A; for a
 * workflow without a project, the subject is the forwarder's own (its space), described by what it sent.
 */
async function loadForwarded(client: EngineTx, refs: { id: number; workflowId: number }[]): Promise<EngineClassification[]> {
  const { rows } = await client.query<{
    id: number;
    workflow_id: number;
    project_id: number | null;
    // biome-ignore lint/suspicious/noExplicitAny: a classification another platform forwarded: JSON of any shape, each field converted where read
    data: Record<string, any>;
    received_at: Date;
  }>(
    `SELECT ec.id, ec.workflow_id, ew.project_id, ec.data, ec.received_at
     FROM unnest($1::int[], $2::int[]) AS r(id, workflow_id)
     JOIN engine_classifications ec ON ec.workflow_id = r.workflow_id AND ec.id = r.id
     LEFT JOIN engine_workflows ew ON ew.id = ec.workflow_id`,
    [refs.map((r) => r.id), refs.map((r) => r.workflowId)],
  );
  const external: { c: Row; space: number; sent?: { metadata?: SubjectMetadata; created_at?: string; updated_at?: string } }[] = [];
  const ofProjects: { c: Row; projectId: number }[] = [];
  for (const { id, workflow_id, project_id, data: d, received_at } of rows) {
    if (!d) continue;
    const subjectIds: number[] = d.subject_id != null ? [Number(d.subject_id)] : (d.subject_ids ?? []).map(Number);
    const c: Row = {
      id,
      project_id: project_id ?? Number(d.project_id ?? 0),
      workflow_id,
      user_id: d.user_id == null ? null : Number(d.user_id),
      subject_ids: subjectIds,
      annotations: d.annotations ?? [],
      metadata: d.metadata ?? {},
      workflow_version: scalarText(d.workflow_version ?? d.metadata?.workflow_version),
      created_at: d.created_at ? new Date(d.created_at) : received_at,
      completed: true,
    };
    if (project_id === null)
      external.push({ c, space: workflow_id, sent: d.subject && typeof d.subject === "object" ? d.subject : undefined });
    else ofProjects.push({ c, projectId: project_id });
  }
  const out: EngineClassification[] = [];
  // Of a project: its subjects only, described by component A.
  const byProject = groupBy(ofProjects, (x) => x.projectId);
  const accepted: Row[] = [];
  for (const [projectId, list] of byProject) {
    const foreign = new Set(
      await subjectsOutside(
        client,
        projectId,
        list.flatMap((x) => x.c.subject_ids),
      ),
    );
    for (const { c } of list) {
      if (!c.subject_ids.length || c.subject_ids.some((s) => foreign.has(s))) {
        console.warn(`[engine] forwarded classification ${c.id} of workflow ${c.workflow_id} names a subject outside its project: skipped`);
        continue;
      }
      accepted.push(c);
    }
  }
  if (accepted.length) {
    const s = await client.query<{ id: number; created_at: Date; updated_at: Date }>(
      `SELECT id, created_at, updated_at FROM subjects WHERE id = ANY($1::int[])`,
      [accepted.map((c) => c.subject_ids[0])],
    );
    const times = new Map(s.rows.map((r) => [r.id, r]));
    for (const c of accepted) {
      c.subject_created_at = times.get(c.subject_ids[0])?.created_at ?? null;
      c.subject_updated_at = times.get(c.subject_ids[0])?.updated_at ?? null;
    }
    const list = accepted.map((c) => engineClassification(c, null, new Map()));
    await attachPlatformMetadata(client, list);
    out.push(...list);
  }
  // Without a project: each workflow's own space, described by what its forwarder sent.
  for (const [space, list] of groupBy(external, (x) => x.space)) {
    const sentMetadata = new Map<number, SubjectMetadata>();
    for (const { c, sent } of list) if (sent?.metadata && c.subject_ids[0]) sentMetadata.set(c.subject_ids[0], sent.metadata);
    const metadata = await cachedSubjectMetadata(client, space, list.map((x) => x.c.subject_ids[0]).filter(Boolean), sentMetadata);
    for (const { c, sent } of list) out.push(engineClassification(c, sent ?? null, metadata));
  }
  return out;
}

function groupBy<T>(list: T[], key: (x: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const x of list) out.set(key(x), [...(out.get(key(x)) ?? []), x]);
  return out;
}

/** The contract's classification data shape. One subject per classification, as the established engine does: the first one linked. */
function engineClassification(
  c: Row,
  sent: { created_at?: string; updated_at?: string } | null,
  metadata: Map<number, SubjectMetadata>,
): EngineClassification {
  const subjectId = c.subject_ids[0];
  return {
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
      created_at: c.subject_created_at?.toISOString() ?? sent?.created_at ?? null,
      updated_at: c.subject_updated_at?.toISOString() ?? sent?.updated_at ?? null,
    },
    created_at: new Date(c.created_at).toISOString(),
  } as EngineClassification;
}
