import { pool } from "@/lib/db";
import { logError } from "@/lib/log/throttled";

const BATCH = 50_000;
// One folder at a time (any process): batches then never race on the same counter rows.
const FOLD_LOCK = 7_301_001;

/**
 * Moves completed classifications from the outbox into the workflow and project counters and the daily
 * counts rollups (all, per project, per workflow, per volunteer and project), in batches,
 * each batch deleted and applied in one statement (exactly once, even across crashes). Returns how many
 * classifications were folded.
 */
export async function foldClassificationCounts(): Promise<number> {
  const conn = await pool().connect();
  let total = 0;
  try {
    for (;;) {
      await conn.query("BEGIN");
      const { rows: lock } = await conn.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [FOLD_LOCK]);
      if (!lock[0].ok) {
        await conn.query("COMMIT");
        return total;
      }
      const { rows } = await conn.query<{ n: number }>(
        `WITH batch AS (
           DELETE FROM classification_count_outbox WHERE id IN (SELECT id FROM classification_count_outbox ORDER BY id LIMIT $1)
           RETURNING project_id, workflow_id, user_id, seconds, (created_at AT TIME ZONE 'UTC')::date AS day),
         wf AS (
           UPDATE workflows w SET classifications_count = w.classifications_count + b.n
           FROM (SELECT workflow_id, count(*)::int AS n FROM batch GROUP BY 1 ORDER BY 1) b WHERE w.id = b.workflow_id RETURNING 1),
         -- Volunteers new to a project: no rollup row yet (the statement sees the rows as they were before
         -- its own inserts below).
         newcomers AS (
           SELECT project_id, count(DISTINCT user_id)::int AS n FROM batch b
           WHERE user_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM user_project_daily_counts u WHERE u.user_id = b.user_id AND u.project_id = b.project_id)
           GROUP BY 1),
         pr AS (
           UPDATE projects p SET classifications_count = p.classifications_count + b.n, classifiers_count = p.classifiers_count + coalesce(v.n, 0)
           FROM (SELECT project_id, count(*)::int AS n FROM batch GROUP BY 1 ORDER BY 1) b LEFT JOIN newcomers v ON v.project_id = b.project_id
           WHERE p.id = b.project_id RETURNING 1),
         daily AS (
           INSERT INTO classification_daily_counts AS d (scope, scope_id, day, count)
           SELECT scope, scope_id, day, n FROM (
             SELECT 'all' AS scope, 0 AS scope_id, day, count(*)::int AS n FROM batch GROUP BY day
             UNION ALL SELECT 'project', project_id, day, count(*)::int FROM batch GROUP BY project_id, day
             UNION ALL SELECT 'workflow', workflow_id, day, count(*)::int FROM batch GROUP BY workflow_id, day
           ) t ORDER BY 1, 2, 3
           ON CONFLICT (scope, scope_id, day) DO UPDATE SET count = d.count + EXCLUDED.count RETURNING 1),
         user_days AS (
           INSERT INTO user_project_daily_counts AS u (user_id, project_id, day, count, seconds)
           SELECT user_id, project_id, day, count(*)::int, sum(seconds) FROM batch WHERE user_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
           ON CONFLICT (user_id, project_id, day) DO UPDATE SET count = u.count + EXCLUDED.count, seconds = u.seconds + EXCLUDED.seconds RETURNING 1),
         -- A volunteer's project preference counts their classifications (activity_count), created on the
         -- first one as the established platform does; updated_at stays (clients edit with its ETag). Users and
         -- projects deleted since are skipped (their classifications still count in the rollups).
         prefs AS (
           INSERT INTO project_preferences AS pp (user_id, project_id, activity_count, email_communication)
           SELECT b.user_id, b.project_id, count(*)::int, coalesce(bool_or(u.project_email_communication), false)
           FROM batch b JOIN users u ON u.id = b.user_id JOIN projects p ON p.id = b.project_id GROUP BY 1, 2 ORDER BY 1, 2
           ON CONFLICT (user_id, project_id) DO UPDATE SET activity_count = pp.activity_count + EXCLUDED.activity_count RETURNING 1)
         SELECT (SELECT count(*)::int FROM batch) AS n, (SELECT count(*) FROM prefs) AS pf, (SELECT count(*) FROM wf) AS w, (SELECT count(*) FROM pr) AS p,
                (SELECT count(*) FROM daily) AS d, (SELECT count(*) FROM user_days) AS u`,
        [BATCH],
      );
      await conn.query("COMMIT");
      total += rows[0].n;
      if (rows[0].n < BATCH) return total;
    }
  } catch (err) {
    await conn.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    conn.release();
  }
}

const g = globalThis as unknown as { quorumFolder?: NodeJS.Timeout };

/** Folds every second in the background (started with the job worker). */
export function startCountFolder(intervalMs = 1000): void {
  if (g.quorumFolder) return;
  let running = false;
  g.quorumFolder = setInterval(() => {
    if (running) return;
    running = true;
    foldClassificationCounts()
      .catch((err) => logError("counts-fold", "[counts] fold failed:", err))
      .finally(() => (running = false));
  }, intervalMs);
  g.quorumFolder.unref();
}

export function stopCountFolder(): void {
  if (g.quorumFolder) clearInterval(g.quorumFolder);
  g.quorumFolder = undefined;
}
