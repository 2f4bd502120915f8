import { pool } from "@/lib/db";
import type { QueueState } from "@/lib/log/metrics";

// The engine inbox's depth and the age of its oldest row, and graphile-worker's jobs by state, in one query:
// what the metrics' scrape-time gauges (lib/ops/queue-gauges.ts) and the admin console's figures show.

/** The engine inbox and the job queue as they stand now. */
export async function readQueueState(): Promise<QueueState> {
  const { rows } = await pool().query<{
    depth: number;
    oldest: number;
    waiting: number;
    running: number;
    retrying: number;
    failed: number;
  }>(
    `SELECT (SELECT count(*)::int FROM engine_inbox) AS depth,
            coalesce((SELECT extract(epoch FROM (now() AT TIME ZONE 'UTC') - created_at)::float8 FROM engine_inbox ORDER BY id LIMIT 1), 0) AS oldest,
            j.*
     FROM (SELECT count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND last_error IS NULL)::int AS waiting,
                  count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
                  count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND last_error IS NOT NULL)::int AS retrying,
                  count(*) FILTER (WHERE attempts >= max_attempts AND locked_at IS NULL)::int AS failed
           FROM graphile_worker._private_jobs) j`,
  );
  const r = rows[0];
  return {
    inboxDepth: r.depth,
    inboxOldestSeconds: Math.max(0, r.oldest),
    jobs: { waiting: r.waiting, running: r.running, retrying: r.retrying, failed: r.failed },
  };
}
