import { z } from "zod";
import type { Classification } from "@/lib/generated/prisma/client";
import type { Actor } from "@/lib/auth/actor";
import { hasScope } from "@/lib/auth/actor";
import { pool } from "@/lib/db";
import { withTransaction, type Sql } from "@/lib/db/sql";
import { ApiError, forbidden, unprocessable } from "@/lib/http/api-error";
import { parseIdValue } from "@/lib/http/request";
import { retirementLimit } from "./workflow-tasks";
import { bumpRetiredCounters } from "./retire-subjects";
import { GOLD_STANDARD_ROLES, loadWorkflowForActor } from "./load-workflow";

const ZId = z.union([z.string(), z.number()]);
export const ZAnnotation = z.looseObject({ task: z.string().min(1).max(200), value: z.unknown() });
export const ZAnnotations = z.array(ZAnnotation).max(1000);
const REQUIRED_METADATA = ["started_at", "finished_at", "user_agent", "user_language", "workflow_version"] as const;
const ZMetadata = z.record(z.string(), z.unknown()).superRefine((m, ctx) => {
  for (const key of REQUIRED_METADATA) if (!(key in m)) ctx.addIssue({ code: "custom", message: `metadata.${key} is required` });
});

export const ZCreateClassification = z.strictObject({
  completed: z.boolean().optional(),
  gold_standard: z.boolean().optional(),
  annotations: ZAnnotations,
  metadata: ZMetadata,
  links: z.strictObject({
    project: ZId,
    workflow: ZId,
    subjects: z.array(ZId).min(1, "links.subjects needs at least one subject").max(100),
    user_group: ZId.nullish(),
  }),
});
export type TCreateClassification = z.infer<typeof ZCreateClassification>;

/**
 * Counts a completed classification: toward retirement for each subject not seen before (all subjects for
 * anonymous volunteers), and (through the outbox, within a second) in the workflow and project counters.
 * Set-based and exact under concurrency:
 * the subject-workflow row is upserted (row lock) and retirement flips only once.
 */
export async function countClassification(
  client: Sql,
  c: { id: number; workflowId: number; projectId: number; userId: number | null; metadata: unknown; subjectIds: number[]; retirement: unknown },
): Promise<number[]> {
  // One statement: the subject-workflow rows (upserted; sorted, so concurrent multi-subject classifications
  // lock rows in one order and never deadlock), the counters' outbox (workflow and project counters are
  // folded from it by lib/domain/fold-classification-counts.ts: updating them here would serialise every
  // classification of a project on one row), and the decision engine's inbox (in the same transaction:
  // a committed classification always reaches the engine).
  const { rows } = await client.query<{ id: number; subject_id: number; classifications_count: number }>(
    `WITH counted AS (
       INSERT INTO subject_workflow_statuses AS sws (subject_id, workflow_id, classifications_count, updated_at)
       SELECT s, $2, 1, now() FROM unnest($1::int[]) AS s
       ON CONFLICT (subject_id, workflow_id) DO UPDATE SET classifications_count = sws.classifications_count + 1, updated_at = now()
       RETURNING id, subject_id, classifications_count),
     outbox AS (INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id, seconds) VALUES ($3, $4, $2, $5, $6)),
     inbox AS (INSERT INTO engine_inbox (classification_id) VALUES ($3))
     SELECT id, subject_id, classifications_count FROM counted`,
    [[...c.subjectIds].sort((a, b) => a - b), c.workflowId, c.id, c.projectId, c.userId, secondsSpent(c.metadata)],
  );
  let retired: number[] = [];
  const limit = retirementLimit(c.retirement);
  const due = limit === null ? [] : rows.filter((r) => r.classifications_count >= limit).map((r) => r.id);
  if (due.length) {
    const res = await client.query<{ subject_id: number }>(
      `UPDATE subject_workflow_statuses SET retired_at = now(), retirement_reason = 'classification_count' WHERE id = ANY($1::int[]) AND retired_at IS NULL RETURNING subject_id`,
      [due],
    );
    retired = res.rows.map((r) => r.subject_id);
  }
  await bumpRetiredCounters(client, c.workflowId, retired.length);
  return retired;
}

const MAX_SECONDS = 3 * 3600;

/** Time spent on a classification from its metadata: finished_at - started_at, 0 to 3 hours (0 when unreadable). */
export function secondsSpent(metadata: unknown): number {
  const m = (metadata ?? {}) as { started_at?: unknown; finished_at?: unknown };
  const start = typeof m.started_at === "string" ? Date.parse(m.started_at) : NaN;
  const end = typeof m.finished_at === "string" ? Date.parse(m.finished_at) : NaN;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return 0;
  return Math.min(Math.round((end - start) / 1000), MAX_SECONDS);
}

/** The Idempotency-Key header's value: 1 to 255 visible ASCII characters (a UUID in our own classifier). */
export function parseIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(header)) throw unprocessable("Idempotency-Key must be 1 to 255 visible ASCII characters");
  return header;
}

export interface CreatedClassification {
  classification: Classification;
  /** True when an earlier POST with the same Idempotency-Key stored it (nothing was created now). */
  replayed: boolean;
}

/**
 * POST /api/classifications: validates, records seen_before, marks subjects seen, counts when complete.
 * With an idempotency key, a repeat (a client retrying after a lost answer, a browser resending what it
 * kept offline) answers the classification stored the first time, and nothing is counted twice.
 */
export async function createClassification(actor: Actor, input: TCreateClassification, userIp?: string, idempotencyKey: string | null = null): Promise<CreatedClassification> {
  if (actor.user && !hasScope(actor, "classification")) throw forbidden("This token lacks the 'classification' scope");
  const workflowId = parseIdValue(input.links.workflow, "links.workflow");
  const projectId = parseIdValue(input.links.project, "links.project");
  const subjectIds = [...new Set(input.links.subjects.map((s) => parseIdValue(s, "links.subjects")))];
  const completed = input.completed ?? true;
  if (!completed && !actor.user) throw unprocessable("Incomplete classifications need a signed-in user");

  // Read before the transaction, so its connection is held only for the writes.
  const workflow = await loadWorkflowForActor(pool(), workflowId, actor).catch((e) => {
    throw e instanceof ApiError && e.status === 404 ? unprocessable(`links.workflow: no workflow ${workflowId}`) : e;
  });
  if (workflow.projectId !== projectId) throw unprocessable("links.project must be the workflow's project");
  // An older version is stored as named (a volunteer who loaded the workflow before an edit; the engine's
  // minimum_workflow_version reads it), as the established platform does; a version the workflow never had
  // is refused.
  const named = String(input.metadata.workflow_version);
  if (!versionNotAfter(named, workflow.version)) {
    throw unprocessable(`metadata.workflow_version '${named}' is not a version of the workflow (its current version is '${workflow.version}')`);
  }
  if (input.gold_standard && !(actor.user?.admin || workflow.roles.some((r) => GOLD_STANDARD_ROLES.includes(r)))) {
    throw forbidden("Only the project's experts may make gold standard classifications");
  }

  // No lookup first: a repeat goes through the same statements, marking as seen what is already seen and
  // inserting nothing (ON CONFLICT), so the common first POST costs no extra query.
  const created = await withTransaction(async (client) => {
    // One statement: the subjects must all be the project's; a signed-in volunteer's are marked seen, and
    // the ones this insert adds are the newly seen (anything else was seen before).
    const found = await client.query<{ n: number; added: number[] }>(
      `WITH found AS (SELECT count(*)::int AS n FROM subjects WHERE id = ANY($1::int[]) AND project_id = $2),
       seen AS (
         INSERT INTO user_seen_subjects (user_id, workflow_id, subject_id)
         SELECT $3, $4, s FROM unnest($1::int[]) AS s WHERE $3::int IS NOT NULL AND (SELECT n FROM found) = cardinality($1::int[])
         ON CONFLICT DO NOTHING RETURNING subject_id)
       SELECT (SELECT n FROM found) AS n, coalesce((SELECT array_agg(subject_id) FROM seen), '{}') AS added`,
      [subjectIds, projectId, actor.user?.id ?? null, workflowId],
    );
    if (found.rows[0].n !== subjectIds.length) throw unprocessable("links.subjects must be subjects of the project");
    const counted = actor.user ? found.rows[0].added : subjectIds;
    const metadata = { ...input.metadata, ...(counted.length < subjectIds.length ? { seen_before: true } : {}) };
    const userGroupId = input.links.user_group == null ? null : parseIdValue(input.links.user_group, "links.user_group");
    // A concurrent POST with the same key waits on the unique index here and then inserts nothing.
    const { rows } = await client.query(
      `INSERT INTO classifications (project_id, workflow_id, user_id, user_group_id, subject_ids, annotations, metadata, completed, gold_standard, workflow_version, user_ip, idempotency_key, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
       ON CONFLICT (coalesce(user_id, 0), idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING *`,
      [projectId, workflowId, actor.user?.id ?? null, userGroupId, subjectIds, JSON.stringify(input.annotations), JSON.stringify(metadata), completed, input.gold_standard ?? null, named, userIp ?? null, idempotencyKey],
    );
    const r = rows[0];
    if (!r) return null;
    if (completed) await countClassification(client, { id: r.id, workflowId, projectId, userId: r.user_id, metadata, subjectIds: counted, retirement: workflow.retirement });
    return fromRow(r);
  });
  if (created) return { classification: created, replayed: false };
  const earlier = await findByIdempotencyKey(pool(), actor.user?.id ?? null, idempotencyKey!);
  if (!earlier) throw new Error("a classification with this Idempotency-Key vanished while being created");
  return { classification: sameRequest(earlier, workflowId, subjectIds), replayed: true };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function fromRow(r: any): Classification {
  return {
    id: r.id, projectId: r.project_id, workflowId: r.workflow_id, userId: r.user_id, userGroupId: r.user_group_id, subjectIds: r.subject_ids,
    annotations: r.annotations, metadata: r.metadata, completed: r.completed, goldStandard: r.gold_standard, workflowVersion: r.workflow_version,
    userIp: r.user_ip, idempotencyKey: r.idempotency_key, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

async function findByIdempotencyKey(client: Sql, userId: number | null, key: string): Promise<Classification | null> {
  const { rows } = await client.query(`SELECT * FROM classifications WHERE coalesce(user_id, 0) = $1 AND idempotency_key = $2`, [userId ?? 0, key]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** A key names one classification: reusing it for another workflow or other subjects is a client's bug. */
function sameRequest(c: Classification, workflowId: number, subjectIds: number[]): Classification {
  const same = c.workflowId === workflowId && c.subjectIds.length === subjectIds.length && c.subjectIds.every((s, i) => s === subjectIds[i]);
  if (!same) throw unprocessable("Idempotency-Key was already used for a classification of other subjects or another workflow");
  return c;
}

/** Whether version `named` ("major.minor") is `current` or an earlier one. */
export function versionNotAfter(named: string, current: string): boolean {
  const parse = (v: string) => (/^\d{1,9}\.\d{1,9}$/.test(v) ? v.split(".").map(Number) : null);
  const a = parse(named);
  const b = parse(current);
  if (!a || !b) return named === current;
  return a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);
}
