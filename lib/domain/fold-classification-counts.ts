import { pool } from "@/lib/db";

const BATCH = 50_000;
// One folder at a time (any process): batches then never race on the same counter rows.
const FOLD_LOCK = 7_301_001;

/**
 * Moves completed classifications from the outbox into the workflow and project counters, in batches,
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
           RETURNING project_id, workflow_id, created_at),
         wf AS (
           UPDATE workflows w SET classifications_count = w.classifications_count + b.n
           FROM (SELECT workflow_id, count(*)::int AS n FROM batch GROUP BY 1 ORDER BY 1) b WHERE w.id = b.workflow_id RETURNING 1),
         pr AS (
           UPDATE projects p SET classifications_count = p.classifications_count + b.n
           FROM (SELECT project_id, count(*)::int AS n FROM batch GROUP BY 1 ORDER BY 1) b WHERE p.id = b.project_id RETURNING 1)
         SELECT (SELECT count(*)::int FROM batch) AS n, (SELECT count(*) FROM wf) AS w, (SELECT count(*) FROM pr) AS p`,
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
      .catch((err) => console.error("[counts] fold failed:", err))
      .finally(() => (running = false));
  }, intervalMs);
  g.quorumFolder.unref();
}

export function stopCountFolder(): void {
  if (g.quorumFolder) clearInterval(g.quorumFolder);
  g.quorumFolder = undefined;
}
