import { readPool } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { hiddenProjectSql, viewerParams, type CountsViewer } from "./visible-projects";

// Component C: classification counts from the daily rollups (classification_daily_counts and
// user_project_daily_counts), bucketed in UTC; weeks start on Monday; empty buckets are omitted.
// Read through readPool(): on the replica when one is configured (lib/db/index.ts), as the rollups are only
// folded every second anyway.
//
// Private projects: a private project the caller may not see does not exist for the counts of projects,
// workflows, volunteers and groups (its id answers as a missing id does; no entry, no figures, no share
// of a volunteer's or a group's totals, which are small enough to single it out). Without a project or
// workflow filter the answer is the platform-wide rollup: every classification, private projects'
// included, as one figure per period with no breakdown by project, the same for every caller (publicly
// cacheable). Leaving private projects out of it would mean subtracting their own daily rows on every
// request, a cost that grows with their activity (40 times the query with 20 busy private projects over
// three years) on the one query the rollup keeps to a row per day.

export const PERIODS = ["day", "week", "month", "year"] as const;
export type Period = (typeof PERIODS)[number];

const bad = (message: string) => new AppError("bad_request", message, { error: message });

export interface CountsQuery {
  projectIds?: number[];
  workflowIds?: number[];
  startDate?: string;
  endDate?: string;
  period?: Period;
}

function ids(raw: string, name: string): number[] {
  const parts = raw.split(",").map((s) => s.trim());
  if (!parts.length || parts.some((p) => !/^[1-9]\d{0,9}$/.test(p) || Number(p) > 2 ** 31 - 1))
    throw bad(`${name} must be one id or comma-separated ids`);
  return [...new Set(parts.map(Number))];
}

/** A calendar date written YYYY-MM-DD (never interpolated into SQL). */
function date(raw: string, name: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : null;
  if (!m || !d || d.getUTCFullYear() !== +m[1] || d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3]) {
    throw bad(`${name} must be a valid date written YYYY-MM-DD`);
  }
  return raw;
}

/** Validates the query string: 400 with a JSON error for anything malformed. */
export function parseCountsQuery(url: URL, opts: { allowWorkflow?: boolean } = { allowWorkflow: true }): CountsQuery {
  const p = url.searchParams;
  const q: CountsQuery = {};
  const project = p.get("project_id");
  const workflow = p.get("workflow_id");
  if (project && workflow) throw bad("project_id and workflow_id cannot be used together");
  if (project) q.projectIds = ids(project, "project_id");
  if (workflow) {
    if (!opts.allowWorkflow) throw bad("workflow_id is not accepted here");
    q.workflowIds = ids(workflow, "workflow_id");
  }
  const start = p.get("start_date");
  const end = p.get("end_date");
  if (start) q.startDate = date(start, "start_date");
  if (end) q.endDate = date(end, "end_date");
  if (q.startDate && q.endDate && q.startDate > q.endDate) throw bad("start_date must not be after end_date");
  const period = p.get("period");
  if (period !== null) {
    const lower = period.toLowerCase();
    if (!(PERIODS as readonly string[]).includes(lower)) throw bad(`period must be one of ${PERIODS.join(", ")}`);
    q.period = lower as Period;
  }
  return q;
}

const bucketIso = (d: Date | string) => `${typeof d === "string" ? d : d.toISOString().slice(0, 10)}T00:00:00.000Z`;

export interface CountsResult {
  total_count: number;
  data?: { period: string; count: number }[];
}

const inRange = (day: string, start: string, end: string) =>
  `(${start}::date IS NULL OR ${day} >= ${start}::date) AND (${end}::date IS NULL OR ${day} <= ${end}::date)`;
const bucketOf = (day: string, period: string) => `to_char(date_trunc(${period}::text, ${day}::timestamp), 'YYYY-MM-DD')`;
const VIEWER = { admin: "$6", user: "$7", roles: "$8" };

// $1 scope, $2 ids, $3/$4 the date range, $5 the period, $6-$8 the viewer. The ids the viewer may see are
// chosen once (a few index probes), then the rollup rows of those ids are read by primary key.
const SCOPED_COUNTS = (projectOfId: string) => `
  SELECT ${bucketOf("day", "$5")} AS bucket, sum(count)::bigint AS n FROM classification_daily_counts
  WHERE scope = $1 AND scope_id = ANY(ARRAY(SELECT s.id FROM unnest($2::int[]) s(id) WHERE NOT ${hiddenProjectSql(projectOfId, VIEWER)}))
    AND ${inRange("day", "$3", "$4")}
  GROUP BY 1 ORDER BY 1`;
const PROJECT_COUNTS = SCOPED_COUNTS("s.id");
const WORKFLOW_COUNTS = SCOPED_COUNTS("(SELECT w.project_id FROM workflows w WHERE w.id = s.id)");
// Everything platform-wide ($1/$2 the range, $3 the period): one rollup row per day.
const ALL_COUNTS = `
  SELECT ${bucketOf("day", "$3")} AS bucket, sum(count)::bigint AS n FROM classification_daily_counts
  WHERE scope = 'all' AND scope_id = 0 AND ${inRange("day", "$1", "$2")}
  GROUP BY 1 ORDER BY 1`;

/** GET /counts/classifications: the total, and buckets when a period is given, of what the viewer may see. */
export async function classificationCounts(q: CountsQuery, viewer: CountsViewer): Promise<CountsResult> {
  const period = q.period ?? "year";
  const range = [q.startDate ?? null, q.endDate ?? null];
  const { rows } = q.workflowIds
    ? await readPool().query<{ bucket: string; n: string }>(WORKFLOW_COUNTS, [
        "workflow",
        q.workflowIds,
        ...range,
        period,
        ...viewerParams(viewer),
      ])
    : q.projectIds
      ? await readPool().query<{ bucket: string; n: string }>(PROJECT_COUNTS, [
          "project",
          q.projectIds,
          ...range,
          period,
          ...viewerParams(viewer),
        ])
      : await readPool().query<{ bucket: string; n: string }>(ALL_COUNTS, [...range, period]);
  const total = rows.reduce((t, r) => t + Number(r.n), 0);
  return q.period
    ? { total_count: total, data: rows.map((r) => ({ period: bucketIso(r.bucket), count: Number(r.n) })) }
    : { total_count: total };
}

export interface UserCountsResult extends CountsResult {
  time_spent: number;
  project_contributions: { project_id: number; count: number; time_spent: number }[];
  /** Per period: `session_time` as the established counts service names it, and the same as `time_spent`. */
  data?: { period: string; count: number; session_time: number; time_spent: number }[];
}

/** GET /counts/classifications/users/<id>: a volunteer's counts, per-project contributions and time spent (seconds). */
export function userClassificationCounts(userId: number, q: CountsQuery, viewer: CountsViewer): Promise<UserCountsResult> {
  return usersClassificationCounts([userId], q, viewer);
}

// A set of volunteers' rollup rows: $1 users, $2 projects (null: all), $3/$4 the range, $5-$7 the viewer
// (a private project it may not see is left out: its id, its figures, and its share of the totals).
const USERS_WHERE = `user_id = ANY($1::int[]) AND ($2::int[] IS NULL OR project_id = ANY($2::int[])) AND ${inRange("day", "$3", "$4")}
  AND NOT ${hiddenProjectSql("project_id", { admin: "$5", user: "$6", roles: "$7" })}`;
// Their rollups and their classifications the folder has not moved into them yet (the outbox holds about the
// last second's, read whole as lib/counts/list-counters.ts does): a volunteer who just classified finds it
// counted on their profile at once, as its project list does.
const USER_DAYS = `(SELECT user_id, project_id, day, count, seconds FROM user_project_daily_counts
  UNION ALL SELECT user_id, project_id, (created_at AT TIME ZONE 'UTC')::date, 1, seconds FROM classification_count_outbox
  WHERE user_id = ANY($1::int[])) r`;

/** The counts of a set of volunteers together (one user, or a group's members), as the viewer may see them. */
async function usersClassificationCounts(userIds: number[], q: CountsQuery, viewer: CountsViewer): Promise<UserCountsResult> {
  const args = [userIds, q.projectIds ?? null, q.startDate ?? null, q.endDate ?? null, ...viewerParams(viewer)];
  const [projects, buckets] = await Promise.all([
    readPool().query<{ project_id: number; n: string; s: string }>(
      `SELECT project_id, sum(count)::bigint AS n, sum(seconds)::bigint AS s FROM ${USER_DAYS} WHERE ${USERS_WHERE} GROUP BY 1 ORDER BY 2 DESC, 1`,
      args,
    ),
    q.period
      ? readPool().query<{ bucket: string; n: string; s: string }>(
          `SELECT ${bucketOf("day", "$8")} AS bucket, sum(count)::bigint AS n, sum(seconds)::bigint AS s
           FROM ${USER_DAYS} WHERE ${USERS_WHERE} GROUP BY 1 ORDER BY 1`,
          [...args, q.period],
        )
      : Promise.resolve(null),
  ]);
  const contributions = projects.rows.map((r) => ({ project_id: r.project_id, count: Number(r.n), time_spent: Number(r.s) }));
  const result: UserCountsResult = {
    total_count: contributions.reduce((t, c) => t + c.count, 0),
    time_spent: contributions.reduce((t, c) => t + c.time_spent, 0),
    project_contributions: contributions,
  };
  if (buckets)
    result.data = buckets.rows.map((r) => ({
      period: bucketIso(r.bucket),
      count: Number(r.n),
      session_time: Number(r.s),
      time_spent: Number(r.s),
    }));
  return result;
}

export interface GroupCountsResult extends UserCountsResult {
  /** Members with at least one classification in the range. */
  active_users: number;
  /** Per member, when the group's stats_visibility shows individuals to the caller. */
  group_member_stats_breakdown?: {
    user_id: number;
    count: number;
    session_time: number;
    project_contributions: { project_id: number; count: number; session_time: number }[];
  }[];
}

/** GET /counts/classifications/user_groups/<id>: the group's members together, and each member when shown. */
export async function groupClassificationCounts(
  memberIds: number[],
  q: CountsQuery,
  individuals: boolean,
  viewer: CountsViewer,
): Promise<GroupCountsResult> {
  const [together, perMember] = await Promise.all([
    usersClassificationCounts(memberIds, q, viewer),
    readPool().query<{ user_id: number; project_id: number; n: string; s: string }>(
      `SELECT user_id, project_id, sum(count)::bigint AS n, sum(seconds)::bigint AS s FROM user_project_daily_counts
       WHERE ${USERS_WHERE} GROUP BY 1, 2 ORDER BY 1, 2`,
      [memberIds, q.projectIds ?? null, q.startDate ?? null, q.endDate ?? null, ...viewerParams(viewer)],
    ),
  ]);
  const byUser = new Map<number, { project_id: number; count: number; session_time: number }[]>();
  for (const r of perMember.rows)
    byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), { project_id: r.project_id, count: Number(r.n), session_time: Number(r.s) }]);
  const result: GroupCountsResult = { ...together, active_users: [...byUser.values()].filter((c) => c.some((p) => p.count > 0)).length };
  if (individuals) {
    result.group_member_stats_breakdown = [...byUser]
      .map(([userId, projects]) => ({
        user_id: userId,
        count: projects.reduce((t, p) => t + p.count, 0),
        session_time: projects.reduce((t, p) => t + p.session_time, 0),
        project_contributions: projects.sort((a, b) => b.count - a.count),
      }))
      .sort((a, b) => b.count - a.count || a.user_id - b.user_id);
  }
  return result;
}
