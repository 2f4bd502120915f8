import crypto from "node:crypto";
import { z } from "zod";
import type { Classification } from "@/lib/generated/prisma/client";
import type { Actor, Caller, GrantRow } from "@/lib/auth/actor";
import { callerActor, hasScope } from "@/lib/auth/actor";
import { grantSql } from "@/lib/auth/tokens";
import { pool } from "@/lib/db";
import type { Sql } from "@/lib/db/sql";
import { statementBatcher } from "@/lib/db/statement-batcher";
import { createStatementsInFlight, processPoolSize } from "@/lib/db/pool-size";
import { forbidden, unprocessable } from "@/lib/http/api-error";
import { parseIdValue } from "@/lib/http/request";
import { retirementLimit } from "./workflow-tasks";
import { bumpRetiredCounters } from "./retire-subjects";
import { GOLD_STANDARD_ROLES } from "./load-workflow";
import { PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";
import { scalarText } from "@/lib/text/scalar-text";

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
  c: {
    id: number;
    workflowId: number;
    projectId: number;
    userId: number | null;
    metadata: unknown;
    subjectIds: number[];
    retirement: unknown;
  },
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
      `UPDATE subject_workflow_statuses SET retired_at = now(), retirement_reason = 'classification_count' WHERE id = ANY($1::int[])
        AND retired_at IS NULL RETURNING subject_id`,
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
 * One SQL statement, shared with the creates that arrive meanwhile (see `creates` below; atomic on its
 * own, no BEGIN/COMMIT round trips; prepared once per connection): for each classification, the
 * checks (the workflow is visible to the actor and of the project, the version is the workflow's or an
 * earlier one, gold standard only by experts, the subjects are the project's) gate every write that
 * follows; then the subjects are marked seen (the ones already seen make it seen_before), the row is
 * inserted (nothing on a repeated idempotency key), and a completed classification is counted: the
 * subject-workflow rows upserted in subject order (concurrent multi-subject classifications never
 * deadlock) with retirement decided in the same upsert, the retired counters, the counters' outbox and,
 * when the workflow has an active engine configuration, the engine's inbox (a committed classification
 * always reaches the engine that runs its workflow).
 */
export async function createClassification(
  caller: Caller,
  input: TCreateClassification,
  userIp?: string,
  idempotencyKey: string | null = null,
): Promise<CreatedClassification> {
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
  const named = scalarText(input.metadata.workflow_version);
  const parsed: (number | null)[] = /^\d{1,9}\.\d{1,9}$/.test(named) ? named.split(".").map(Number) : [null, null];

  // Anonymous callers share one key space: for them a key replays only the very request that stored it (the
  // key is bound to the request's content), so another anonymous client that happens to send the same key
  // with its own classification stores its own and is never answered someone else's.
  const key = idempotencyKey !== null && userId === null ? anonymousIdempotencyKey(idempotencyKey, input) : idempotencyKey;
  const r = await creates.submit({
    workflow_id: workflowId,
    project_id: projectId,
    user_id: userId,
    subject_ids: subjectIds,
    annotations: input.annotations,
    metadata: input.metadata,
    completed,
    gold: input.gold_standard ?? null,
    named,
    ip: userIp ?? null,
    key,
    user_group_id: userGroupId,
    admin: resolved ? !!resolved.user?.admin : null,
    seconds: secondsSpent(input.metadata),
    major: parsed[0],
    minor: parsed[1],
    grant_id: claims?.grantId ?? null,
  });
  // The token's grant (when checked here) comes first: with a revoked token nothing else is answered.
  const actor = callerActor(caller, r.token_grant);
  switch (r.problem as string | null) {
    case "workflow":
      throw unprocessable(`links.workflow: no workflow ${workflowId}`);
    case "project":
      throw unprocessable("links.project must be the workflow's project");
    case "version":
      throw unprocessable(
        `metadata.workflow_version '${named}' is not a version of the workflow (its current version is '${r.current_version}')`,
      );
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
  const earlier = await findByIdempotencyKey(pool(), userId, key!);
  if (!earlier) throw new Error("a classification with this Idempotency-Key vanished while being created");
  return { classification: sameRequest(earlier, workflowId, subjectIds), replayed: true, actor };
}

/** An anonymous caller's idempotency key as stored: the key bound to the request's content. */
export function anonymousIdempotencyKey(key: string, input: TCreateClassification): string {
  return `anon:${crypto.createHash("sha256").update(key).update("\0").update(JSON.stringify(input)).digest("base64url")}`;
}

/** One classification to create: a row of CREATE_SQL's $1 (JSON; its keys are the statement's column names). */
interface CreateItem {
  workflow_id: number;
  project_id: number;
  /** null: anonymous. */
  user_id: number | null;
  /** Distinct, sorted. */
  subject_ids: number[];
  annotations: unknown;
  metadata: Record<string, unknown>;
  completed: boolean;
  gold: boolean | null;
  /** metadata.workflow_version as named, and its major/minor (null when it is not "major.minor"). */
  named: string;
  major: number | null;
  minor: number | null;
  ip: string | null;
  key: string | null;
  user_group_id: number | null;
  /** null: the grant's user's. */
  admin: boolean | null;
  seconds: number;
  /** The bearer token's grant to check (null: the caller is already known). */
  grant_id: string | null;
}

// $1 the items (a JSON array of CreateItem), $2 roles that see a private project, $3 roles that may make
// gold standard. One answer row per item, in their order. Items of one statement never share a subject of
// a workflow, nor a user's idempotency key (the batcher sees to it): an item's inserted classification is
// the one with its workflow and subjects. Each write's rows are sorted before it starts, so the writes run
// one after the other (seen rows, then classifications, then subject-workflow rows), and within each the
// rows are locked in one order in every statement (seen rows by user, workflow, subject; idempotency keys by
// user, key; subject-workflow rows by subject, workflow): concurrent statements never deadlock.
const CREATE_SQL = `
WITH it AS MATERIALIZED (
  SELECT * FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (workflow_id int, project_id int, user_id int, subject_ids int[], annotations jsonb,
    metadata jsonb, completed boolean, gold boolean, named text, major int, minor int, ip text, key text, user_group_id int, admin boolean, seconds int,
    grant_id text)) WITH ORDINALITY AS t(workflow_id, project_id, user_id, subject_ids, annotations, metadata, completed, gold, named, major, minor, ip, key,
    user_group_id, admin, seconds, grant_id, i)),
chk AS (
  SELECT it.*, CASE
    WHEN NOT (it.grant_id IS NULL OR coalesce(tg.revoked_at IS NULL AND NOT tg.banned, false)) THEN 'token'
    WHEN w.id IS NULL OR (w.private AND NOT coalesce(it.admin, tg.admin, false) AND NOT w.roles && $2::text[]) THEN 'workflow'
    WHEN w.project_id <> it.project_id THEN 'project'
    WHEN NOT CASE WHEN it.major IS NULL THEN it.named = w.major_version || '.' || w.minor_version
                  ELSE it.major < w.major_version OR (it.major = w.major_version AND it.minor <= w.minor_version) END THEN 'version'
    WHEN it.gold IS TRUE AND NOT coalesce(it.admin, tg.admin, false) AND NOT w.roles && $3::text[] THEN 'gold'
    WHEN (SELECT count(*) FROM subjects WHERE id = ANY(it.subject_ids) AND project_id = it.project_id) <> cardinality(it.subject_ids) THEN 'subjects'
  END AS problem,
  w.major_version || '.' || w.minor_version AS current_version, w.retirement, CASE WHEN tg.id IS NULL THEN NULL ELSE row_to_json(tg) END AS token_grant
  FROM it
  -- LIMIT 1 keeps each lookup an index probe per item (a join would be planned for a hundred items).
  LEFT JOIN LATERAL (${grantSql("it.grant_id")} AND g.user_id = it.user_id LIMIT 1) tg ON true
  LEFT JOIN LATERAL (
    SELECT w.id, w.project_id, w.major_version, w.minor_version, w.retirement, p.private, coalesce(pr.roles, '{}') AS roles
    FROM workflows w JOIN projects p ON p.id = w.project_id LEFT JOIN project_roles pr ON pr.project_id = p.id AND pr.user_id = it.user_id
    WHERE w.id = it.workflow_id LIMIT 1) w ON true),
seen AS (
  INSERT INTO user_seen_subjects (user_id, workflow_id, subject_id)
  SELECT chk.user_id, chk.workflow_id, s FROM chk, unnest(chk.subject_ids) AS s
  WHERE chk.user_id IS NOT NULL AND chk.problem IS NULL
  ORDER BY chk.user_id, chk.workflow_id, s
  ON CONFLICT DO NOTHING RETURNING user_id, workflow_id, subject_id),
counted AS (
  SELECT chk.*, CASE WHEN chk.user_id IS NULL THEN chk.subject_ids ELSE coalesce(
    (SELECT array_agg(seen.subject_id ORDER BY seen.subject_id) FROM seen
     WHERE seen.user_id = chk.user_id AND seen.workflow_id = chk.workflow_id AND seen.subject_id = ANY(chk.subject_ids)), '{}') END AS ids
  FROM chk WHERE chk.problem IS NULL),
ins AS (
  INSERT INTO classifications (project_id, workflow_id, user_id, user_group_id, subject_ids, annotations, metadata, completed, gold_standard,
                               workflow_version, user_ip, idempotency_key, updated_at)
  SELECT project_id, workflow_id, user_id, user_group_id, subject_ids, annotations,
         CASE WHEN cardinality(ids) < cardinality(subject_ids) THEN metadata || '{"seen_before": true}' ELSE metadata END,
         completed, gold, named, ip, key, now()
  FROM counted ORDER BY coalesce(user_id, 0), key, i
  ON CONFLICT (coalesce(user_id, 0), idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
  RETURNING *),
mine AS (
  SELECT counted.i, counted.ids AS counted_ids, counted.seconds AS seconds_spent, ins.*
  FROM ins JOIN counted ON counted.workflow_id = ins.workflow_id AND counted.subject_ids = ins.subject_ids),
sws AS (
  INSERT INTO subject_workflow_statuses AS s (subject_id, workflow_id, classifications_count, updated_at)
  SELECT x, mine.workflow_id, 1, now() FROM mine, unnest(mine.counted_ids) AS x WHERE mine.completed
  ORDER BY x, mine.workflow_id
  ON CONFLICT (subject_id, workflow_id) DO UPDATE SET classifications_count = s.classifications_count + 1, updated_at = now()
  RETURNING id, subject_id, workflow_id, classifications_count, retired_at IS NULL AS open),
outbox AS (
  INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id, seconds)
  SELECT id, project_id, workflow_id, user_id, seconds_spent FROM mine WHERE completed),
inbox AS (
  INSERT INTO engine_inbox (classification_id) SELECT id FROM ins
  WHERE completed AND EXISTS (SELECT 1 FROM engine_workflows e WHERE e.id = ins.workflow_id AND e.status = 'active'))
SELECT chk.problem, chk.current_version, chk.retirement, chk.token_grant,
       (SELECT json_agg(json_build_array(sws.id, sws.classifications_count)) FROM sws
        WHERE sws.open AND sws.workflow_id = chk.workflow_id AND sws.subject_id = ANY(chk.subject_ids)) AS open_counts,
       ins.*
FROM chk LEFT JOIN mine ON mine.i = chk.i LEFT JOIN ins ON ins.id = mine.id
ORDER BY chk.i`;

/** An answer row: the checks' outcome, then the classification's columns (all null when none was inserted). */
type CreateRow = {
  problem: string | null;
  current_version: string | null;
  retirement: unknown;
  token_grant: GrantRow | null;
  open_counts: [number, number][] | null;
  id: number | null;
} & Record<string, unknown>;

const SHOW_ROLES = [...PROJECT_PERMISSIONS.show];

/**
 * Creates go through one batcher per process: alone when none is in flight, else together (see
 * statementBatcher), with a fifth of the pool's connections in flight (2 of the default 10; the others stay
 * free for the rest of the request path).
 */
const creates = statementBatcher<CreateItem, CreateRow>({
  maxInFlight: createStatementsInFlight(processPoolSize()),
  maxBatch: 64,
  keys: (c) => [...c.subject_ids.map((s) => `s${c.workflow_id}:${s}`), ...(c.key === null ? [] : [`k${c.user_id ?? 0}:${c.key}`])],
  run: async (items) => {
    const { rows } = await pool().query<CreateRow>({
      name: "create-classifications",
      text: CREATE_SQL,
      values: [JSON.stringify(items), SHOW_ROLES, GOLD_STANDARD_ROLES],
    });
    return rows;
  },
});

/** What the create statements did so far in this process (for tests and diagnosis). */
export const createBatchStats = () => creates.stats();

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
    `WITH r AS (UPDATE subject_workflow_statuses SET retired_at = now(), retirement_reason = 'classification_count'
      WHERE id = ANY($1::int[]) AND retired_at IS NULL RETURNING 1),
     n AS (SELECT count(*)::int AS n FROM r),
     wf AS (UPDATE workflows SET retired_set_member_subjects_count = retired_set_member_subjects_count + n.n FROM n
       WHERE workflows.id = $2 AND n.n > 0 RETURNING workflows.project_id, n.n)
     UPDATE projects SET retired_subjects_count = retired_subjects_count + wf.n FROM wf WHERE projects.id = wf.project_id`,
    [due, workflowId],
  );
}

// biome-ignore lint/suspicious/noExplicitAny: a classifications row from pg (`SELECT *`, `ins.*`), mapped column by column onto Prisma's Classification
function fromRow(r: any): Classification {
  return {
    id: r.id,
    projectId: r.project_id,
    workflowId: r.workflow_id,
    userId: r.user_id,
    userGroupId: r.user_group_id,
    subjectIds: r.subject_ids,
    annotations: r.annotations,
    metadata: r.metadata,
    completed: r.completed,
    goldStandard: r.gold_standard,
    workflowVersion: r.workflow_version,
    userIp: r.user_ip,
    idempotencyKey: r.idempotency_key,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

async function findByIdempotencyKey(client: Sql, userId: number | null, key: string): Promise<Classification | null> {
  const { rows } = await client.query(`SELECT * FROM classifications WHERE coalesce(user_id, 0) = $1 AND idempotency_key = $2`, [
    userId ?? 0,
    key,
  ]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** A key names one classification: reusing it for another workflow or other subjects is a client's bug. */
function sameRequest(c: Classification, workflowId: number, subjectIds: number[]): Classification {
  const same =
    c.workflowId === workflowId && c.subjectIds.length === subjectIds.length && c.subjectIds.every((s, i) => s === subjectIds[i]);
  if (!same) throw unprocessable("Idempotency-Key was already used for a classification of other subjects or another workflow");
  return c;
}
