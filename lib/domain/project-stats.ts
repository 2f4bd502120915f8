import { pool } from "@/lib/db";
import { logError } from "@/lib/log/throttled";

// One refresher at a time (any process).
const STATS_LOCK = 7_301_002;

/**
 * Refreshes the listing figures of every workflow and project in one statement (set-based: the subject
 * counts come from the subject sets' counters, the activity from the daily rollups, so the cost grows with
 * the number of workflows, not of subjects or classifications):
 * - workflow completeness: retired subjects / subjects of its linked sets, 0 to 1;
 * - project completeness: the mean over its active workflows (0 without any), as the established platform;
 * - activity: classifications in the last 24 hours: today's (UTC) count plus the part of yesterday's that
 *   falls in the window, pro rata (the rollups are daily).
 * Only rows whose figures changed are written. Returns how many projects changed.
 */
export async function refreshProjectStats(): Promise<number> {
  const conn = await pool().connect();
  try {
    await conn.query("BEGIN");
    const { rows: lock } = await conn.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [STATS_LOCK]);
    if (!lock[0].ok) {
      await conn.query("COMMIT");
      return 0;
    }
    const { rows } = await conn.query<{ n: number }>(
      `WITH clock AS (
         SELECT (now() AT TIME ZONE 'UTC')::date AS today,
                extract(epoch FROM (now() AT TIME ZONE 'UTC') - (now() AT TIME ZONE 'UTC')::date) / 86400.0 AS elapsed),
       subjects AS (
         SELECT wss.workflow_id, sum(ss.set_member_subjects_count)::bigint AS n
         FROM workflow_subject_sets wss JOIN subject_sets ss ON ss.id = wss.subject_set_id GROUP BY 1),
       recent AS (
         SELECT d.scope_id AS workflow_id,
                round(sum(CASE WHEN d.day = c.today THEN d.count ELSE d.count * (1 - c.elapsed) END))::int AS n
         FROM classification_daily_counts d, clock c
         WHERE d.scope = 'workflow' AND d.day >= c.today - 1 AND d.day <= c.today GROUP BY 1),
       wf AS (
         SELECT w.id, w.project_id, w.active,
                CASE WHEN coalesce(s.n, 0) = 0 THEN 0 ELSE least(1.0, w.retired_set_member_subjects_count::float8 / s.n) END AS completeness,
                coalesce(r.n, 0) AS activity
         FROM workflows w LEFT JOIN subjects s ON s.workflow_id = w.id LEFT JOIN recent r ON r.workflow_id = w.id),
       wf_written AS (
         UPDATE workflows w SET completeness = wf.completeness, activity = wf.activity
         FROM wf WHERE w.id = wf.id AND (w.completeness, w.activity) IS DISTINCT FROM (wf.completeness, wf.activity) RETURNING 1),
       pr AS (
         SELECT p.id,
                coalesce((SELECT avg(wf.completeness) FROM wf WHERE wf.project_id = p.id AND wf.active), 0) AS completeness,
                coalesce((SELECT sum(wf.activity) FROM wf WHERE wf.project_id = p.id), 0)::int AS activity
         FROM projects p),
       pr_written AS (
         UPDATE projects p SET completeness = pr.completeness, activity = pr.activity
         FROM pr WHERE p.id = pr.id AND (p.completeness, p.activity) IS DISTINCT FROM (pr.completeness, pr.activity) RETURNING 1)
       SELECT (SELECT count(*)::int FROM pr_written) AS n, (SELECT count(*) FROM wf_written) AS w`,
    );
    await conn.query("COMMIT");
    return rows[0].n;
  } catch (err) {
    await conn.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    conn.release();
  }
}

const g = globalThis as unknown as { quorumStats?: NodeJS.Timeout };

/** Refreshes every minute in the background (started with the job worker). */
export function startProjectStatsRefresher(intervalMs = 60_000): void {
  if (g.quorumStats) return;
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    refreshProjectStats()
      .catch((err) => logError("project-stats", "[project-stats] refresh failed:", err))
      .finally(() => (running = false));
  };
  g.quorumStats = setInterval(tick, intervalMs);
  g.quorumStats.unref();
  setTimeout(tick, 5_000).unref();
}

export function stopProjectStatsRefresher(): void {
  if (g.quorumStats) clearInterval(g.quorumStats);
  g.quorumStats = undefined;
}
