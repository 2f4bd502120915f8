import { pool } from "@/lib/db";
import type { Sql } from "@/lib/db/sql";
import { EVENTS } from "./events";

// The hand-off from classification create to the engine. The create transaction appends the classification
// to engine_inbox (a plain insert: adding a graphile-worker job there costs a NOTIFY, whose commit-time lock
// serialises every create). A dispatcher in each worker process moves batches into jobs with one add_jobs
// call, deleting them in the same statement, so every committed classification becomes exactly one job.

export async function handToEngine(client: Sql, classificationId: number): Promise<void> {
  await client.query(`INSERT INTO engine_inbox (classification_id) VALUES ($1)`, [classificationId]);
}

/** Moves up to `limit` waiting classifications into engine jobs; returns how many. Safe in many processes at once. */
export async function dispatchEngineInbox(limit = 1000): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    `WITH batch AS (
       DELETE FROM engine_inbox WHERE id IN (SELECT id FROM engine_inbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING classification_id),
     added AS (
       SELECT graphile_worker.add_jobs(array_agg(ROW($2::text, json_build_object('classification_id', classification_id), NULL, NULL, 25, 'c:' || classification_id, NULL, NULL)::graphile_worker.job_spec))
       FROM batch HAVING count(*) > 0)
     SELECT (SELECT count(*) FROM added)::int AS n`,
    [limit, EVENTS.classificationReceived],
  );
  return rows[0]?.n ?? 0;
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
      console.error("[engine] inbox dispatch failed:", (err as Error).message);
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
