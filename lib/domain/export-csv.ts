import { once } from "node:events";
import { db, readPool } from "@/lib/db";
import { storage } from "@/lib/storage/storage";
import { csvStringifier } from "@/lib/text/csv";
import { runBackgroundJob } from "./background-jobs";

// CSV exports for a project's team: POST /api/projects/<id>/classifications_export,
// /api/workflows/<id>/classifications_export and /api/projects/<id>/subjects_export start a background job
// (or answer the one already running); GET on the same path answers the latest. The task walks the rows
// by id in batches of 1,000 (keyset), streams the CSV into storage (exports/...), and records progress
// after each batch. An export that crashes starts over: it is written anew, never appended to. The finished
// job's download_url is a signed link valid for an hour, and only the project's editors see the job.
// The rows are read through readPool() (the replica when one is configured: an export may lag the
// primary by a moment, as the established platform's do); the job's progress is written to the primary.
//
// Classifications export: completed classifications, one row each. No IP address is exported. `user_name`
// is the login ("not-logged-in" for anonymous ones); `expert` is true when the classifier holds the owner,
// collaborator or expert role on the project at export time; `subject_data` maps each subject id to its
// metadata; `subject_ids` are joined with ";"; times are "YYYY-MM-DD HH:MM:SS UTC".
// Every export's text cells go through lib/text/csv.ts: one that a spreadsheet would run as a formula
// (starting with =, +, -, @, a tab or a carriage return, and not a plain number) gets a leading quote.
// Subjects export: one row per subject, subject set it is in and workflow that set feeds (empty workflow or
// set columns when it has none), with that workflow's classification count and retirement.

export const CLASSIFICATIONS_EXPORT = "classifications_export";
export const SUBJECTS_EXPORT = "subjects_export";
export const WORKFLOWS_EXPORT = "workflows_export";
// The decision engine's data requests (lib/engine/http/data-requests.ts): a workflow's extracts, subject
// reductions or user reductions, optionally of one subgroup or one user.
export const ENGINE_EXPORTS = {
  extracts: "engine_extracts_export",
  subject_reductions: "engine_subject_reductions_export",
  user_reductions: "engine_user_reductions_export",
} as const;
export type ExportKind =
  | typeof CLASSIFICATIONS_EXPORT
  | typeof SUBJECTS_EXPORT
  | typeof WORKFLOWS_EXPORT
  | (typeof ENGINE_EXPORTS)[keyof typeof ENGINE_EXPORTS];
export type Target = { project_id: number } | { workflow_id: number; subgroup?: string | null; user_id?: number | null };

const BATCH = 1000;
const UTC = (col: string) => `to_char(${col}, 'YYYY-MM-DD HH24:MI:SS') || ' UTC'`;

interface ExportDef {
  columns: string[];
  count(target: Target): { sql: string; values: unknown[] };
  /** Rows after the cursor (one batch), and the cursor to continue from; empty when done. */
  batch(target: Target, after: number): { sql: string; values: unknown[] };
  /** The id the keyset cursor advances by, and the CSV record of a row. */
  cursor(row: Record<string, unknown>): number;
  record(row: Record<string, unknown>): unknown[];
}

const json = (v: unknown) => JSON.stringify(v ?? null);
const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

const classificationsExport: ExportDef = {
  columns: [
    "classification_id",
    "user_name",
    "user_id",
    "workflow_id",
    "workflow_name",
    "workflow_version",
    "created_at",
    "gold_standard",
    "expert",
    "metadata",
    "annotations",
    "subject_data",
    "subject_ids",
  ],
  count: (t) => {
    const [col, id] = "workflow_id" in t ? ["workflow_id", t.workflow_id] : ["project_id", t.project_id];
    return { sql: `SELECT count(*)::int AS n FROM classifications WHERE ${col} = $1 AND completed`, values: [id] };
  },
  batch: (t, after) => {
    const [col, id] = "workflow_id" in t ? ["workflow_id", t.workflow_id] : ["project_id", t.project_id];
    return {
      sql: `SELECT c.id, u.login AS user_name, c.user_id, c.workflow_id, w.display_name AS workflow_name, c.workflow_version,
                   ${UTC("c.created_at")} AS created_at, c.gold_standard,
                   coalesce(pr.roles && ARRAY['owner', 'collaborator', 'expert']::text[], false) AS expert,
                   c.metadata, c.annotations, c.subject_ids,
                   (SELECT coalesce(jsonb_object_agg(s.id::text, s.metadata), '{}'::jsonb) FROM subjects s WHERE s.id = ANY(c.subject_ids)) AS subject_data
            FROM classifications c
            LEFT JOIN users u ON u.id = c.user_id
            LEFT JOIN workflows w ON w.id = c.workflow_id
            LEFT JOIN project_roles pr ON pr.project_id = c.project_id AND pr.user_id = c.user_id
            WHERE c.${col} = $1 AND c.completed AND c.id > $2
            ORDER BY c.id LIMIT ${BATCH}`,
      values: [id, after],
    };
  },
  cursor: (r) => r.id as number,
  record: (r) => [
    r.id,
    r.user_id === null ? "not-logged-in" : r.user_name,
    text(r.user_id),
    r.workflow_id,
    text(r.workflow_name),
    r.workflow_version,
    r.created_at,
    text(r.gold_standard),
    r.expert ? "true" : "",
    json(r.metadata),
    json(r.annotations),
    json(r.subject_data),
    (r.subject_ids as number[]).join(";"),
  ],
};

const subjectsExport: ExportDef = {
  columns: [
    "subject_id",
    "project_id",
    "workflow_id",
    "subject_set_id",
    "metadata",
    "locations",
    "classifications_count",
    "retired_at",
    "retirement_reason",
  ],
  count: (t) => ({
    sql: `SELECT count(*)::int AS n FROM subjects WHERE project_id = $1`,
    values: [(t as { project_id: number }).project_id],
  }),
  batch: (t, after) => ({
    sql: `WITH page AS (SELECT id FROM subjects WHERE project_id = $1 AND id > $2 ORDER BY id LIMIT ${BATCH})
          SELECT s.id, s.project_id, wss.workflow_id, sms.subject_set_id, s.metadata, s.locations,
                 CASE WHEN wss.workflow_id IS NULL THEN NULL ELSE coalesce(sws.classifications_count, 0) END AS classifications_count,
                 ${UTC("sws.retired_at")} AS retired_at, sws.retirement_reason
          FROM page JOIN subjects s ON s.id = page.id
          LEFT JOIN set_member_subjects sms ON sms.subject_id = s.id
          LEFT JOIN workflow_subject_sets wss ON wss.subject_set_id = sms.subject_set_id
          LEFT JOIN subject_workflow_statuses sws ON sws.subject_id = s.id AND sws.workflow_id = wss.workflow_id
          ORDER BY s.id, sms.subject_set_id, wss.workflow_id`,
    values: [(t as { project_id: number }).project_id, after],
  }),
  cursor: (r) => r.id as number,
  record: (r) => [
    r.id,
    r.project_id,
    text(r.workflow_id),
    text(r.subject_set_id),
    json(r.metadata),
    json(r.locations),
    text(r.classifications_count),
    text(r.retired_at),
    text(r.retirement_reason),
  ],
};

// Workflows export: one row per workflow of the project, its current version, in the established
// platform's columns (tasks, retirement, aggregation and strings as JSON).
const workflowsExport: ExportDef = {
  columns: [
    "workflow_id",
    "display_name",
    "version",
    "active",
    "classifications_count",
    "pairwise",
    "grouped",
    "prioritized",
    "primary_language",
    "first_task",
    "tutorial_subject_id",
    "retired_set_member_subjects_count",
    "tasks",
    "retirement",
    "aggregation",
    "strings",
    "minor_version",
  ],
  count: (t) => ({
    sql: `SELECT count(*)::int AS n FROM workflows WHERE project_id = $1`,
    values: [(t as { project_id: number }).project_id],
  }),
  batch: (t, after) => ({
    sql: `SELECT id, display_name, major_version, minor_version, active, classifications_count, pairwise, grouped, prioritized, primary_language, first_task,
                 retired_set_member_subjects_count, tasks, retirement, aggregation, strings
          FROM workflows WHERE project_id = $1 AND id > $2 ORDER BY id LIMIT ${BATCH}`,
    values: [(t as { project_id: number }).project_id, after],
  }),
  cursor: (r) => r.id as number,
  record: (r) => [
    r.id,
    r.display_name,
    r.major_version,
    String(r.active),
    r.classifications_count,
    String(r.pairwise),
    String(r.grouped),
    String(r.prioritized),
    r.primary_language,
    r.first_task,
    "",
    r.retired_set_member_subjects_count,
    json(r.tasks),
    json(r.retirement),
    json(r.aggregation),
    json(r.strings),
    r.minor_version,
  ],
};

/** A decision-engine table of the workflow, by id: everything, or one subgroup (reductions) or one user. */
function engineExport(table: "extracts" | "subject_reductions" | "user_reductions", columns: string[]): ExportDef {
  const where = (t: Target) => {
    const { workflow_id, subgroup, user_id } = t as { workflow_id: number; subgroup?: string | null; user_id?: number | null };
    return {
      sql:
        `workflow_id = $1 AND ($2::text IS NULL OR ${table === "extracts" ? "NULL" : "subgroup"} = $2)` +
        ` AND ($3::int IS NULL OR ${table === "subject_reductions" ? "NULL" : "user_id"} = $3)`,
      values: [workflow_id, subgroup ?? null, user_id ?? null],
    };
  };
  return {
    columns,
    count: (t) => ({ sql: `SELECT count(*)::int AS n FROM ${table} WHERE ${where(t).sql}`, values: where(t).values }),
    batch: (t, after) => ({
      sql: `SELECT ${columns.map((c) => (c.endsWith("_at") ? `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${c}` : c)).join(", ")}
            FROM ${table} WHERE ${where(t).sql} AND id > $4 ORDER BY id LIMIT ${BATCH}`,
      values: [...where(t).values, after],
    }),
    cursor: (r) => r.id as number,
    record: (r) => columns.map((c) => (["data", "store"].includes(c) ? json(r[c]) : text(r[c]))),
  };
}

const EXPORTS: Record<ExportKind, ExportDef> = {
  [CLASSIFICATIONS_EXPORT]: classificationsExport,
  [SUBJECTS_EXPORT]: subjectsExport,
  [WORKFLOWS_EXPORT]: workflowsExport,
  [ENGINE_EXPORTS.extracts]: engineExport("extracts", [
    "id",
    "classification_id",
    "classification_at",
    "subject_id",
    "user_id",
    "workflow_id",
    "extractor_key",
    "data",
    "created_at",
    "updated_at",
  ]),
  [ENGINE_EXPORTS.subject_reductions]: engineExport("subject_reductions", [
    "id",
    "reducer_key",
    "workflow_id",
    "subject_id",
    "subgroup",
    "data",
    "store",
    "created_at",
    "updated_at",
  ]),
  [ENGINE_EXPORTS.user_reductions]: engineExport("user_reductions", [
    "id",
    "reducer_key",
    "workflow_id",
    "user_id",
    "subgroup",
    "data",
    "store",
    "created_at",
    "updated_at",
  ]),
};

/** The task of an export job: streams the CSV into storage and answers its key. */
export async function runExport(kind: ExportKind, jobId: number): Promise<void> {
  const def = EXPORTS[kind];
  await runBackgroundJob(jobId, kind, async (job) => {
    const target = job.params as unknown as Target;
    const counted = def.count(target);
    const { rows } = await readPool().query(counted.sql, counted.values);
    await db().backgroundJob.update({ where: { id: jobId }, data: { total: rows[0].n, progress: 0 } });
    const key = `exports/${job.projectId}/${kind}-${jobId}.csv`;
    const csv = csvStringifier(def.columns);
    const stored = storage().putObject(key, csv, { contentType: "text/csv; charset=utf-8" });
    try {
      let after = 0;
      let done = 0;
      for (;;) {
        const q = def.batch(target, after);
        const batch = (await readPool().query(q.sql, q.values)).rows as Record<string, unknown>[];
        if (!batch.length) break;
        const ids = new Set<number>();
        for (const row of batch) {
          ids.add(def.cursor(row));
          if (!csv.write(def.record(row))) await once(csv, "drain");
        }
        after = def.cursor(batch[batch.length - 1]);
        done += ids.size;
        await db().backgroundJob.update({ where: { id: jobId }, data: { progress: done } });
      }
      csv.end();
      await stored;
    } catch (err) {
      csv.destroy(err as Error);
      await stored.catch(() => {});
      throw err;
    }
    return key;
  });
}
