import type { GrantRow } from "@/lib/auth/actor";
import { grantSql } from "@/lib/auth/tokens";
import type { Classification } from "@/lib/generated/prisma/client";

// The SQL that creates and counts classifications (lib/domain/create-classification.ts runs it). A
// classification is counted in one way only, by COUNT_SQL: inside the create's statement for a classification
// created complete, and in a statement of its own (COMPLETE_SQL) for one completed later by a PUT.

/** Why the create's checks refused an item (null: they passed). */
export type CreateProblem = "token" | "workflow" | "project" | "version" | "gold" | "subjects";

/** A classifications row as the statement returns it (`RETURNING *`). */
export interface ClassificationRow {
  id: number;
  project_id: number;
  workflow_id: number;
  user_id: number | null;
  user_group_id: number | null;
  subject_ids: number[];
  annotations: Classification["annotations"];
  metadata: Classification["metadata"];
  completed: boolean;
  gold_standard: boolean | null;
  workflow_version: string;
  user_ip: string | null;
  idempotency_key: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Subjects a count left open in the workflow, as [subject id, classifications_count] (retirement decides on them). */
export type OpenCounts = [number, number][] | null;

/** The checks' outcome for an item of CREATE_SQL. */
interface CreateChecks {
  problem: CreateProblem | null;
  /** The workflow's version ("major.minor"), for the answer to a version it does not have. */
  current_version: string | null;
  retirement: unknown;
  /** The bearer token's grant and its user (null when no grant was to be checked). */
  token_grant: GrantRow | null;
  open_counts: OpenCounts;
}

/** An answer row of CREATE_SQL: the checks' outcome, then the classification's columns (all null when none was inserted). */
export type CreateRow = CreateChecks & (ClassificationRow | { [K in keyof ClassificationRow]: null });

/**
 * Counts completed classifications: the CTEs that follow a CTE named `mine` (one row per classification:
 * id, project_id, workflow_id, user_id, completed, counted_ids (the subjects it counts toward, distinct and
 * sorted), seconds_spent, request_id (the X-Request-Id of the request that created or completed it)). Their subject-workflow rows are upserted in subject order (concurrent
 * multi-subject classifications never deadlock) and return whether they are still open (retirement is
 * decided on them by the caller's second statement, when a count reaches the limit); the counters' outbox
 * gets a row (lib/domain/fold-classification-counts.ts folds it into the workflow and project counters:
 * updating them here would serialise every classification of a project on one row); and, when the
 * workflow has an active engine configuration, the engine's inbox (in the same statement: a committed
 * classification always reaches the engine that runs its workflow).
 */
const COUNT_SQL = `
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
  INSERT INTO engine_inbox (classification_id, workflow_id, request_id) SELECT id, workflow_id, request_id FROM mine
  WHERE completed AND EXISTS (SELECT 1 FROM engine_workflows e WHERE e.id = mine.workflow_id AND e.status = 'active'))`;

// $1 the items (a JSON array of CreateItem), $2 roles that see a private project, $3 roles that may make
// gold standard. One answer row per item, in their order. Items of one statement never share a subject of
// a workflow, nor a user's idempotency key (the batcher sees to it): an item's inserted classification is
// the one with its workflow and subjects. Each write's rows are sorted before it starts, so the writes run
// one after the other (seen rows, then classifications, then subject-workflow rows), and within each the
// rows are locked in one order in every statement (seen rows by user, workflow, subject; idempotency keys by
// user, key; subject-workflow rows by subject, workflow): concurrent statements never deadlock.
export const CREATE_SQL = `
WITH it AS MATERIALIZED (
  SELECT * FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (workflow_id int, project_id int, user_id int, subject_ids int[], annotations jsonb,
    metadata jsonb, completed boolean, gold boolean, named text, major int, minor int, ip text, key text, user_group_id int, admin boolean, seconds int,
    grant_id text, rid text)) WITH ORDINALITY AS t(workflow_id, project_id, user_id, subject_ids, annotations, metadata, completed, gold, named, major, minor, ip,
    key, user_group_id, admin, seconds, grant_id, rid, i)),
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
  SELECT counted.i, counted.ids AS counted_ids, counted.seconds AS seconds_spent, counted.rid AS request_id, ins.*
  FROM ins JOIN counted ON counted.workflow_id = ins.workflow_id AND counted.subject_ids = ins.subject_ids),
${COUNT_SQL}
SELECT chk.problem, chk.current_version, chk.retirement, chk.token_grant,
       (SELECT json_agg(json_build_array(sws.subject_id, sws.classifications_count)) FROM sws
        WHERE sws.open AND sws.workflow_id = chk.workflow_id AND sws.subject_id = ANY(chk.subject_ids)) AS open_counts,
       ins.*
FROM chk LEFT JOIN mine ON mine.i = chk.i LEFT JOIN ins ON ins.id = mine.id
ORDER BY chk.i`;

/**
 * Counts a classification completed after its create (PUT /api/classifications/<id>), with the create's
 * CTEs. $1 id, $2 project, $3 workflow, $4 user, $5 the subjects it counts toward (distinct, sorted),
 * $6 seconds spent, $7 the request's id. One row: open_counts.
 */
export const COMPLETE_SQL = `
WITH mine AS (
  SELECT $1::int AS id, $2::int AS project_id, $3::int AS workflow_id, $4::int AS user_id, true AS completed,
         $5::int[] AS counted_ids, $6::int AS seconds_spent, $7::text AS request_id),
${COUNT_SQL}
SELECT (SELECT json_agg(json_build_array(sws.subject_id, sws.classifications_count)) FROM sws WHERE sws.open) AS open_counts`;
