import { z } from "zod";
import type { Classification } from "@/lib/generated/prisma/client";
import type { Actor, Caller } from "@/lib/auth/actor";
import { callerActor, hasScope } from "@/lib/auth/actor";
import { grantSql } from "@/lib/auth/tokens";
import { pool } from "@/lib/db";
import type { Sql } from "@/lib/db/sql";
import { forbidden, unprocessable } from "@/lib/http/api-error";
import { parseIdValue } from "@/lib/http/request";
import { retirementLimit } from "./workflow-tasks";
import { bumpRetiredCounters } from "./retire-subjects";
import { GOLD_STANDARD_ROLES } from "./load-workflow";
import { PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";

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
  /** Who created it (for a bearer token: its grant checked in the create's own statement). */
  actor: Actor;
  /** True when an earlier POST with the same Idempotency-Key stored it (nothing was created now). */
  replayed: boolean;
}

/**
 * POST /api/classifications: validates, records seen_before, marks subjects seen, counts when complete.
 * With an idempotency key, a repeat (a client retrying after a lost answer, a browser resending what it
 * kept offline) answers the classification stored the first time, and nothing is counted twice.
 *
 * One SQL statement (atomic on its own, no BEGIN/COMMIT round trips; prepared once per connection): the
 * checks (the workflow is visible to the actor and of the project, the version is the workflow's or an
 * earlier one, gold standard only by experts, the subjects are the project's) gate every write that
 * follows; then the subjects are marked seen (the ones already seen make it seen_before), the row is
 * inserted (nothing on a repeated idempotency key), and a completed classification is counted: the
 * subject-workflow rows upserted in subject order (concurrent multi-subject classifications never
 * deadlock) with retirement decided in the same upsert, the retired counters, the counters' outbox and,
 * when the workflow has an active engine configuration, the engine's inbox (a committed classification
 * always reaches the engine that runs its workflow).
 */
export async function createClassification(caller: Caller, input: TCreateClassification, userIp?: string, idempotencyKey: string | null = null): Promise<CreatedClassification> {
  // A bearer token's grant is checked inside the statement (one round trip less on the hot path).
  const claims = caller.claims ?? null;
  const resolved = caller.actor ?? null;
  if (resolved?.user && !hasScope(resolved, "classification")) throw forbidden("This token lacks the 'classification' scope");
  if (claims && !claims.scopes.includes("classification")) throw new Error("resolveCaller hands over only tokens with the scope");
  const userId = claims ? claims.userId : (resolved!.user?.id ?? null);
  const workflowId = parseIdValue(input.links.workflow, "links.workflow");
  const projectId = parseIdValue(input.links.project, "links.project");
  const subjectIds = [...new Set(input.links.subjects.map((s) => parseIdValue(s, "links.subjects")))].sort((a, b) => a - b);
  const completed = input.completed ?? true;
  if (!completed && userId === null) throw unprocessable("Incomplete classifications need a signed-in user");
  const userGroupId = input.links.user_group == null ? null : parseIdValue(input.links.user_group, "links.user_group");
  const named = String(input.metadata.workflow_version);
  const parsed = /^\d{1,9}\.\d{1,9}$/.test(named) ? named.split(".").map(Number) : [null, null];

  const { rows } = await pool().query({
    name: "create-classification",
    text: CREATE_SQL,
    values: [
      workflowId, projectId, userId, subjectIds, JSON.stringify(input.annotations), JSON.stringify(input.metadata), completed,
      input.gold_standard ?? null, named, userIp ?? null, idempotencyKey, userGroupId, resolved ? !!resolved.user?.admin : null, secondsSpent(input.metadata),
      parsed[0], parsed[1], [...PROJECT_PERMISSIONS.show], GOLD_STANDARD_ROLES, claims?.grantId ?? null,
    ],
  });
  const r = rows[0];
  // The token's grant (when checked here) comes first: with a revoked token nothing else is answered.
  const actor = callerActor(caller, r.token_grant);
  switch (r.problem as string | null) {
    case "workflow":
      throw unprocessable(`links.workflow: no workflow ${workflowId}`);
    case "project":
      throw unprocessable("links.project must be the workflow's project");
    case "version":
      throw unprocessable(`metadata.workflow_version '${named}' is not a version of the workflow (its current version is '${r.current_version}')`);
    case "gold":
      throw forbidden("Only the project's experts may make gold standard classifications");
    case "subjects":
      throw unprocessable("links.subjects must be subjects of the project");
  }
  if (r.id !== null) {
    await retireDue(workflowId, r.retirement, r.open_counts);
    return { classification: fromRow(r), replayed: false, actor };
  }
  // The key was used before (or by a concurrent request, which the insert waited for).
  const earlier = await findByIdempotencyKey(pool(), userId, idempotencyKey!);
  if (!earlier) throw new Error("a classification with this Idempotency-Key vanished while being created");
  return { classification: sameRequest(earlier, workflowId, subjectIds), replayed: true, actor };
}

// $1 workflow, $2 project, $3 user (null: anonymous), $4 subjects (distinct, sorted), $5 annotations,
// $6 metadata, $7 completed, $8 gold_standard, $9 workflow_version as named, $10 user_ip, $11 idempotency
// key, $12 user group, $13 admin (null: the grant's user's), $14 seconds spent, $15/$16 the named version's
// major/minor (null when it is not "major.minor"), $17 roles that see a private project, $18 roles that may
// make gold standard, $19 the bearer token's grant to check (null: the caller is already known).
const CREATE_SQL = `
WITH tg AS (${grantSql("$19")} AND g.user_id = $3),
a AS (
  SELECT $19::text IS NULL OR EXISTS (SELECT 1 FROM tg WHERE revoked_at IS NULL AND NOT banned) AS ok,
         coalesce($13::boolean, (SELECT admin FROM tg), false) AS admin),
w AS (
  SELECT w.id, w.project_id, w.major_version, w.minor_version, w.retirement, p.private, coalesce(pr.roles, '{}') AS roles
  FROM workflows w JOIN projects p ON p.id = w.project_id
  LEFT JOIN project_roles pr ON pr.project_id = p.id AND pr.user_id = $3
  WHERE w.id = $1),
chk AS (
  SELECT CASE
    WHEN NOT a.ok THEN 'token'
    WHEN w.id IS NULL OR (w.private AND NOT a.admin AND NOT w.roles && $17::text[]) THEN 'workflow'
    WHEN w.project_id <> $2 THEN 'project'
    WHEN NOT CASE WHEN $15::int IS NULL THEN $9 = w.major_version || '.' || w.minor_version
                  ELSE $15 < w.major_version OR ($15 = w.major_version AND $16::int <= w.minor_version) END THEN 'version'
    WHEN $8 IS TRUE AND NOT a.admin AND NOT w.roles && $18::text[] THEN 'gold'
    WHEN (SELECT count(*) FROM subjects WHERE id = ANY($4::int[]) AND project_id = $2) <> cardinality($4::int[]) THEN 'subjects'
  END AS problem,
  w.major_version || '.' || w.minor_version AS current_version
  FROM a LEFT JOIN w ON true),
seen AS (
  INSERT INTO user_seen_subjects (user_id, workflow_id, subject_id)
  SELECT $3, $1, s FROM unnest($4::int[]) AS s, chk WHERE $3::int IS NOT NULL AND chk.problem IS NULL
  ON CONFLICT DO NOTHING RETURNING subject_id),
counted AS (
  SELECT CASE WHEN $3::int IS NULL THEN $4::int[] ELSE coalesce((SELECT array_agg(subject_id ORDER BY subject_id) FROM seen), '{}') END AS ids),
ins AS (
  INSERT INTO classifications (project_id, workflow_id, user_id, user_group_id, subject_ids, annotations, metadata, completed, gold_standard, workflow_version, user_ip, idempotency_key, updated_at)
  SELECT $2, $1, $3, $12, $4, $5::jsonb,
         CASE WHEN cardinality(counted.ids) < cardinality($4::int[]) THEN $6::jsonb || '{"seen_before": true}' ELSE $6::jsonb END,
         $7, $8, $9, $10, $11, now()
  FROM counted, chk WHERE chk.problem IS NULL
  ON CONFLICT (coalesce(user_id, 0), idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
  RETURNING *),
sws AS (
  INSERT INTO subject_workflow_statuses AS s (subject_id, workflow_id, classifications_count, updated_at)
  SELECT x, $1, 1, now() FROM ins, counted, unnest(counted.ids) AS x WHERE ins.completed
  ON CONFLICT (subject_id, workflow_id) DO UPDATE SET classifications_count = s.classifications_count + 1, updated_at = now()
  RETURNING id, classifications_count, retired_at IS NULL AS open),
outbox AS (
  INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id, seconds) SELECT id, $2, $1, $3, $14 FROM ins WHERE completed),
inbox AS (
  INSERT INTO engine_inbox (classification_id) SELECT id FROM ins
  WHERE completed AND EXISTS (SELECT 1 FROM engine_workflows WHERE id = $1 AND status = 'active'))
SELECT chk.problem, chk.current_version, (SELECT retirement FROM w) AS retirement, (SELECT row_to_json(tg) FROM tg) AS token_grant,
       (SELECT json_agg(json_build_array(sws.id, sws.classifications_count)) FROM sws WHERE sws.open) AS open_counts, ins.*
FROM chk LEFT JOIN ins ON true`;

/**
 * Retires the subject-workflow rows that reached the workflow's retirement count and are still open, and
 * moves the retired counters by exactly as many (a second statement, needed only when a count reaches the
 * limit; should the process die between the two, the next classification of that subject retires it).
 */
async function retireDue(workflowId: number, retirement: unknown, openCounts: [number, number][] | null): Promise<void> {
  const limit = retirementLimit(retirement);
  const due = limit === null ? [] : (openCounts ?? []).filter(([, count]) => count >= limit).map(([id]) => id);
  if (!due.length) return;
  await pool().query(
    `WITH r AS (UPDATE subject_workflow_statuses SET retired_at = now(), retirement_reason = 'classification_count' WHERE id = ANY($1::int[]) AND retired_at IS NULL RETURNING 1),
     n AS (SELECT count(*)::int AS n FROM r),
     wf AS (UPDATE workflows SET retired_set_member_subjects_count = retired_set_member_subjects_count + n.n FROM n WHERE workflows.id = $2 AND n.n > 0 RETURNING workflows.project_id, n.n)
     UPDATE projects SET retired_subjects_count = retired_subjects_count + wf.n FROM wf WHERE projects.id = wf.project_id`,
    [due, workflowId],
  );
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
