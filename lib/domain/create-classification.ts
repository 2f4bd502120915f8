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

/** POST /api/classifications: validates, records seen_before, marks subjects seen, counts when complete. */
export async function createClassification(actor: Actor, input: TCreateClassification, userIp?: string): Promise<Classification> {
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
  if (String(input.metadata.workflow_version) !== workflow.version) {
    throw unprocessable(`metadata.workflow_version '${String(input.metadata.workflow_version)}' is not the workflow's version '${workflow.version}'`);
  }
  if (input.gold_standard && !(actor.user?.admin || workflow.roles.some((r) => GOLD_STANDARD_ROLES.includes(r)))) {
    throw forbidden("Only the project's experts may make gold standard classifications");
  }

  return withTransaction(async (client) => {
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
    const { rows } = await client.query(
      `INSERT INTO classifications (project_id, workflow_id, user_id, user_group_id, subject_ids, annotations, metadata, completed, gold_standard, workflow_version, user_ip, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now()) RETURNING *`,
      [projectId, workflowId, actor.user?.id ?? null, userGroupId, subjectIds, JSON.stringify(input.annotations), JSON.stringify(metadata), completed, input.gold_standard ?? null, workflow.version, userIp ?? null],
    );
    const r = rows[0];
    if (completed) await countClassification(client, { id: r.id, workflowId, projectId, userId: r.user_id, metadata, subjectIds: counted, retirement: workflow.retirement });
    return {
      id: r.id, projectId: r.project_id, workflowId: r.workflow_id, userId: r.user_id, userGroupId: r.user_group_id, subjectIds: r.subject_ids,
      annotations: r.annotations, metadata: r.metadata, completed: r.completed, goldStandard: r.gold_standard, workflowVersion: r.workflow_version,
      userIp: r.user_ip, createdAt: r.created_at, updatedAt: r.updated_at,
    };
  });
}
