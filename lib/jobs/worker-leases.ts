import { EventEmitter } from "node:events";
import type { WorkerEvents } from "graphile-worker";
import { pool } from "@/lib/db";
import { logError } from "@/lib/log/throttled";

// graphile-worker keeps a job locked by a dead worker for 4 hours. Each worker process renews a lease
// for its worker pools every few seconds; every process, at start and periodically, unlocks the jobs of
// pools whose lease lapsed (graphile_worker.force_unlock_workers), so a killed process's work is
// picked up again within seconds. Stages are idempotent, so re-running a half-done job is safe.

const leaseSeconds = () => Number(process.env.WORKER_LEASE_SECONDS ?? 30);

export class WorkerLeases {
  readonly events: WorkerEvents = new EventEmitter() as WorkerEvents;
  private ids = new Set<string>();
  /** Jobs this process is running now (graphile-worker's job ids). */
  private running = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** When this process last renewed its pools' leases (and reaped lapsed ones): ms since the epoch. */
  renewedAt: number | null = null;

  constructor() {
    // Since graphile-worker 0.17 a job is locked by its worker pool's id (not the worker's), so the lease
    // is the pool's.
    this.events.on("pool:create", ({ workerPool }) => {
      this.ids.add(workerPool.id);
      // Leased from the start: a pool killed before its first renewal is still found lapsed.
      void pool()
        .query(`INSERT INTO worker_leases (worker_id) VALUES ($1) ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()`, [
          workerPool.id,
        ])
        .catch(() => {});
    });
    this.events.on("job:start", ({ job }) => void this.running.add(String(job.id)));
    this.events.on("job:complete", ({ job }) => void this.running.delete(String(job.id)));
    // A pool that ended stops being renewed, and its lease is left to lapse: a pool shut down because it
    // could not record a job's outcome (the database went away mid-job) leaves that job locked, and the
    // reaper unlocks it once the lease has lapsed (after a clean shutdown there is nothing left to unlock).
    this.events.on("pool:release", ({ workerPool }) => {
      this.ids.delete(workerPool.id);
    });
  }

  async start(): Promise<void> {
    // The database may be unreachable at start: the periodic tick reaps once it is back.
    await reapLapsedWorkers().then(
      () => (this.renewedAt = Date.now()),
      (err) => logError("worker-reap", "[worker] could not reap lapsed workers:", err.message),
    );
    const every = Math.max(1, leaseSeconds() / 3) * 1000;
    this.timer = setInterval(
      () => void this.tick().catch((err) => logError("worker-lease", "[worker] lease renewal failed:", err.message)),
      every,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.ids.size) {
      await pool().query(
        `INSERT INTO worker_leases (worker_id, heartbeat_at) SELECT w, now() FROM unnest($1::text[]) AS w
         ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()`,
        [[...this.ids]],
      );
    }
    await reapLapsedWorkers();
    this.renewedAt = Date.now();
    await this.unlockOrphanedJobs();
  }

  /**
   * A live pool can leave a job locked that none of its workers runs: when the database goes away just as
   * a job ends, graphile-worker cannot record the outcome (its retries give up) and moves on, and the job
   * would stay locked for four hours. Jobs locked by our pools for longer than the lease and not running
   * here are unlocked, so they run again (stages are idempotent).
   */
  private async unlockOrphanedJobs(): Promise<void> {
    if (!this.ids.size) return;
    const { rowCount } = await pool().query(
      `UPDATE graphile_worker._private_jobs SET locked_at = NULL, locked_by = NULL
       WHERE locked_by = ANY($1::text[]) AND locked_at < now() - make_interval(secs => $2) AND NOT (id = ANY($3::bigint[]))`,
      [[...this.ids], leaseSeconds(), [...this.running]],
    );
    if (rowCount) console.warn(`[worker] unlocked ${rowCount} job(s) whose outcome could not be recorded`);
  }
}

/** Unlocks the jobs of workers whose lease lapsed; returns their ids. */
export async function reapLapsedWorkers(): Promise<string[]> {
  const { rows } = await pool().query<{ ids: string[] | null }>(
    `WITH dead AS (DELETE FROM worker_leases WHERE heartbeat_at < now() - make_interval(secs => $1) RETURNING worker_id)
     SELECT array_agg(worker_id) AS ids FROM dead`,
    [leaseSeconds()],
  );
  const ids = rows[0]?.ids ?? [];
  if (ids.length) {
    await pool().query(`SELECT graphile_worker.force_unlock_workers($1::text[])`, [ids]);
    // A running job whose key was re-added was superseded by a new job (graphile-worker gives the old one
    // max attempts and no key). If its worker died, the unlocked remnant would sit as "failed" for ever
    // though it never failed: the job that superseded it does the same work with newer state.
    await pool().query(
      `DELETE FROM graphile_worker._private_jobs WHERE key IS NULL AND locked_at IS NULL AND last_error IS NULL AND attempts >= max_attempts`,
    );
    console.warn(`[worker] unlocked the jobs of ${ids.length} lapsed worker(s): ${ids.join(", ")}`);
  }
  return ids;
}
