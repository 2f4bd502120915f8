import { pool } from "@/lib/db";
import { withTransaction, type Sql } from "@/lib/db/sql";
import { CLASSIFICATION_BATCH_TASK } from "./events";
import { logError } from "@/lib/log/throttled";

// The hand-off from classification create to the engine. The create transaction appends the classification
// to engine_inbox (a plain insert: adding a graphile-worker job there costs a NOTIFY, whose commit-time lock
// serialises every create). A dispatcher in each worker process moves batches into jobs with one add_jobs
// call, deleting them in the same statement, so every committed classification lands in exactly one job.

export async function handToEngine(client: Sql, classificationIds: number | number[]): Promise<void> {
  if (typeof classificationIds === "number")
    await client.query(`INSERT INTO engine_inbox (classification_id) VALUES ($1)`, [classificationIds]);
  else if (classificationIds.length)
    await client.query(`INSERT INTO engine_inbox (classification_id) SELECT unnest($1::int[])`, [classificationIds]);
}

/** Most classifications in one engine job (ENGINE_BATCH_SIZE, default 50). */
const batchSize = () => Math.max(1, Number(process.env.ENGINE_BATCH_SIZE ?? 50));
/** A backlog is spread over up to this many jobs, so that several workers share it. */
const SPREAD = 4;
/**
 * ... but no job takes fewer than this many (unless fewer wait): a job costs the same statements, a
 * graphile-worker fetch and completion and a commit (an fsync) whether it carries one classification or
 * eight, and at a steady create rate each poll finds only a few waiting, which spread over four jobs made
 * nearly every classification a job of its own (docs/benchmarks.md).
 */
const MIN_PER_JOB = 8;

/**
 * How waiting classifications are split into jobs: a small backlog over up to SPREAD jobs of at least
 * MIN_PER_JOB (so several workers share it and latency stays low), a large one into full batches of `size`
 * (fewer, larger transactions).
 */
export function inboxBatches(ids: number[], size: number, spread = SPREAD, minPerJob = MIN_PER_JOB): number[][] {
  const per = Math.max(1, Math.min(size, Math.max(minPerJob, Math.ceil(ids.length / spread))));
  const sorted = [...ids].sort((a, b) => a - b);
  const out: number[][] = [];
  for (let i = 0; i < sorted.length; i += per) out.push(sorted.slice(i, i + per));
  return out;
}

/**
 * Moves up to `limit` waiting classifications into engine jobs (inboxBatches); returns how many left the
 * inbox (those of workflows the engine does not run leave it without a job).
 * The rows are deleted and their jobs added in one transaction. Safe in many processes at once.
 */
export async function dispatchEngineInbox(limit = 1000): Promise<number> {
  // The usual case, polled every few milliseconds: nothing waiting, one cheap query.
  const { rows: waiting } = await pool().query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM engine_inbox) AS any`);
  if (!waiting[0].any) return 0;
  return withTransaction(async (client) => {
    // Classifications of workflows the engine does not run (no engine configuration, or one that is not
    // active: extraction would skip them) leave the inbox without a job: most workflows have no engine
    // configuration, and their classifications cost the engine nothing. Ids component A lacks (posted by an
    // external forwarder) always go on.
    const { rows } = await client.query<{ classification_id: number; run: boolean }>(
      `WITH taken AS (DELETE FROM engine_inbox WHERE id IN (SELECT id FROM engine_inbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING classification_id)
       SELECT t.classification_id, (c.id IS NULL OR ew.id IS NOT NULL) AS run
       FROM taken t LEFT JOIN classifications c ON c.id = t.classification_id
       LEFT JOIN engine_workflows ew ON ew.id = c.workflow_id AND ew.status = 'active'`,
      [limit],
    );
    const ids = rows.filter((r) => r.run).map((r) => r.classification_id);
    if (!ids.length) return rows.length;
    const batches = inboxBatches(ids, batchSize());
    await client.query(
      `SELECT graphile_worker.add_jobs(array_agg(
         ROW($1::text, json_build_object('classification_ids', b), NULL, NULL, 25, NULL, NULL, NULL)::graphile_worker.job_spec))
       FROM unnest($2::json[]) AS b`,
      [CLASSIFICATION_BATCH_TASK, batches.map((b) => JSON.stringify(b))],
    );
    return rows.length;
  });
}

const g = globalThis as unknown as { quorumInbox?: { timer: NodeJS.Timeout | null; stopped: boolean } };
const BATCH = 1000;
const intervalMs = () => Number(process.env.ENGINE_INBOX_POLL_MS ?? 25);

/** Polls the inbox every ENGINE_INBOX_POLL_MS (default 25 ms) until stopped; drains in batches while full. */
export function startInboxDispatcher(): void {
  if (g.quorumInbox && !g.quorumInbox.stopped) return;
  const state = (g.quorumInbox = { timer: null as NodeJS.Timeout | null, stopped: false });
  const tick = async () => {
    try {
      while (!state.stopped && (await dispatchEngineInbox(BATCH)) === BATCH) {
        // A full batch: more are waiting.
      }
    } catch (err) {
      logError("engine-inbox", "[engine] inbox dispatch failed:", (err as Error).message);
    }
    if (!state.stopped) state.timer = setTimeout(tick, intervalMs()).unref();
  };
  state.timer = setTimeout(tick, 0).unref();
}

export function stopInboxDispatcher(): void {
  if (!g.quorumInbox) return;
  g.quorumInbox.stopped = true;
  if (g.quorumInbox.timer) clearTimeout(g.quorumInbox.timer);
}
