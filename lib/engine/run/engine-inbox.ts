import type { TaskList } from "graphile-worker";
import { pool } from "@/lib/db";
import { withTransaction, type Sql } from "@/lib/db/sql";
import { enqueueEvents } from "./enqueue-events";
import { CLASSIFICATION_BATCH_TASK, type EngineEvent, EVENTS, ZClassificationBatch } from "./events";
import { extractClassifications } from "./extract-classification";
import { inngestConfigured, queueTx } from "./pipeline";
import { logError } from "@/lib/log/throttled";
import { currentRequestId } from "@/lib/log/context";
import { metrics } from "@/lib/log/metrics";
import type { PipelineTimeline } from "./engine-tx";
import { observeTimeline, openTimeline } from "./timeline";

// The hand-off from classification create to the engine. The create transaction appends the classification
// to engine_inbox (a plain insert: adding a graphile-worker job there costs a NOTIFY, whose commit-time lock
// serialises every create). Each worker process takes what waits:
// - built-in queue (the default): in the engine's own transaction. One transaction deletes a batch from the
//   inbox and carries it from extraction to retirement (processEngineInbox): the rows leave the inbox if
//   and only if their work commits, so a process that dies mid-batch leaves them waiting for the next one.
//   No job is made for the batch (a graphile-worker job would cost an add_jobs, a fetch and a completion,
//   each its own commit, per batch); a batch that fails becomes one job per classification, with retries.
// - Inngest configured: a dispatcher moves batches into jobs with one add_jobs call, deleting them in the
//   same statement (dispatchEngineInbox); the jobs forward them to Inngest.

/** Appends classifications, each with its workflow, to the inbox (in the caller's transaction), with the request's id. */
export async function handToEngine(client: Sql, refs: { id: number; workflowId: number }[]): Promise<void> {
  if (refs.length)
    await client.query(
      `INSERT INTO engine_inbox (classification_id, workflow_id, request_id) SELECT c, w, $3 FROM unnest($1::int[], $2::int[]) AS x(c, w)`,
      [refs.map((r) => r.id), refs.map((r) => r.workflowId), currentRequestId() ?? null],
    );
}

type InboxRef = { id: number; workflowId: number };
/** An inbox row taken by a consumer: when it was handed over (ms since the epoch) and by which request. */
type TakenRef = InboxRef & { handedAt: number; requestId: string | null };

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
export function inboxBatches<T extends number | InboxRef>(ids: T[], size: number, spread = SPREAD, minPerJob = MIN_PER_JOB): T[][] {
  const per = Math.max(1, Math.min(size, Math.max(minPerJob, Math.ceil(ids.length / spread))));
  const idOf = (x: T) => (typeof x === "number" ? x : x.id);
  const sorted = [...ids].sort((a, b) => idOf(a) - idOf(b));
  const out: T[][] = [];
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
    const { rows } = await client.query<{ classification_id: number; workflow_id: number; request_id: string | null; run: boolean }>(
      `WITH taken AS (DELETE FROM engine_inbox WHERE id IN (SELECT id FROM engine_inbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING classification_id, workflow_id, request_id)
       SELECT t.classification_id, t.workflow_id, t.request_id, (c.id IS NULL OR ew.id IS NOT NULL) AS run
       FROM taken t LEFT JOIN classifications c ON c.id = t.classification_id AND c.workflow_id = t.workflow_id
       LEFT JOIN engine_workflows ew ON ew.id = c.workflow_id AND ew.status = 'active'`,
      [limit],
    );
    const refs = rows.filter((r) => r.run).map((r) => ({ id: r.classification_id, workflowId: r.workflow_id, requestId: r.request_id }));
    if (!refs.length) return rows.length;
    const batches = inboxBatches(refs, batchSize());
    await client.query(
      `SELECT graphile_worker.add_jobs(array_agg(
         ROW($1::text, b, NULL, NULL, 25, NULL, NULL, NULL)::graphile_worker.job_spec))
       FROM unnest($2::json[]) AS b`,
      [
        CLASSIFICATION_BATCH_TASK,
        batches.map((b) =>
          JSON.stringify({ classification_ids: b.map((r) => r.id), workflow_ids: b.map((r) => r.workflowId), ...requestIdsOf(b) }),
        ),
      ],
    );
    return rows.length;
  });
}

/**
 * The built-in queue's consumer: takes up to `limit` waiting classifications (SKIP LOCKED, so several
 * consumers and processes share the inbox) and runs them through the engine in the same transaction:
 * extraction, reduction, rules and the in-process effects, one commit. Returns how many it took.
 *
 * The transaction commits without waiting for its WAL flush (synchronous_commit off): everything it writes
 * is derived from committed classifications and committed together with their removal from the inbox, so
 * a database crash that loses the commit puts them back in the inbox and they are processed again.
 *
 * A batch that fails is rolled back (its rows wait again) and then handed to graphile-worker as one
 * classification job each, with retries and backoff, so one that cannot be processed holds up no other.
 */
export async function processEngineInbox(limit = batchSize()): Promise<number> {
  const { rows: waiting } = await pool().query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM engine_inbox) AS any`);
  if (!waiting[0].any) return 0;
  let ids: TakenRef[] = [];
  let timeline: PipelineTimeline | undefined;
  try {
    const n = await queueTx(async (client, emit) => {
      await client.query(`SET LOCAL synchronous_commit = off`);
      ids = await takeInbox(client, limit);
      timeline = openTimeline(client, ids);
      if (ids.length) await extractClassifications(client, emit, ids);
      return ids.length;
    });
    observeTimeline(timeline);
    metrics().engineProcessed.inc(n);
    return n;
  } catch (err) {
    if (!ids.length) throw err;
    const requestIds = [...new Set(ids.flatMap((r) => (r.requestId ? [r.requestId] : [])))];
    logError(
      "engine-batch",
      `[engine] a batch of ${ids.length} classifications failed (${(err as Error).message}); retrying each on its own`,
      { requestIds: requestIds.slice(0, 50) },
    );
    return withTransaction(async (client) => {
      // Only those still waiting: another consumer may have taken them since the rollback.
      const { rows } = await client.query<{ classification_id: number; workflow_id: number; request_id: string | null }>(
        `DELETE FROM engine_inbox i USING unnest($1::int[], $2::int[]) AS x(c, w) WHERE i.classification_id = x.c AND i.workflow_id = x.w
         RETURNING i.classification_id, i.workflow_id, i.request_id`,
        [ids.map((r) => r.id), ids.map((r) => r.workflowId)],
      );
      // Each job carries the id of the request that created its classification (lib/jobs/worker.ts logs with it).
      await enqueueEvents(
        client,
        rows.map((r) => ({
          name: EVENTS.classificationReceived,
          data: { classification_id: r.classification_id, workflow_id: r.workflow_id },
          requestId: r.request_id,
        })),
      );
      return rows.length;
    });
  }
}

/**
 * Deletes up to `limit` of the oldest waiting inbox rows no other transaction holds; their classification
 * ids, when each was handed over (as ms since the epoch: the column holds UTC) and by which request.
 */
async function takeInbox(client: Sql, limit: number): Promise<TakenRef[]> {
  const { rows } = await client.query<{ classification_id: number; workflow_id: number; handed_at: number; request_id: string | null }>(
    `DELETE FROM engine_inbox WHERE id IN (SELECT id FROM engine_inbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING classification_id, workflow_id, (extract(epoch FROM created_at) * 1000)::float8 AS handed_at, request_id`,
    [limit],
  );
  return rows.map((r) => ({ id: r.classification_id, workflowId: r.workflow_id, handedAt: r.handed_at, requestId: r.request_id }));
}

/** The request ids of a batch's classifications, for its job's payload (none when no request is known). */
function requestIdsOf(batch: { requestId: string | null }[]): { request_ids?: (string | null)[] } {
  return batch.some((r) => r.requestId) ? { request_ids: batch.map((r) => r.requestId) } : {};
}

/**
 * The dispatcher's job (Inngest configured): sends its classifications to Inngest, one event each. A batch
 * job found while no Inngest server is configured (made before it was turned off) hands its
 * classifications back to the inbox, which the built-in queue's consumers take.
 */
export async function classificationBatch(payload: unknown): Promise<void> {
  const batch = ZClassificationBatch.parse(payload);
  if (inngestConfigured()) {
    const { inngest } = await import("./inngest-client");
    const events: EngineEvent[] = batch.classification_ids.map((id, i) => ({
      name: EVENTS.classificationReceived,
      data: { classification_id: id, ...(batch.workflow_ids ? { workflow_id: batch.workflow_ids[i] } : {}) },
    }));
    await inngest.send(events);
    return;
  }
  // A job made before batches named workflows names component A's classifications: their own workflows.
  await pool().query(
    `INSERT INTO engine_inbox (classification_id, workflow_id)
     SELECT x.id, coalesce(x.w, c.workflow_id) FROM unnest($1::int[], $2::int[]) AS x(id, w)
     LEFT JOIN classifications c ON x.w IS NULL AND c.id = x.id WHERE coalesce(x.w, c.workflow_id) IS NOT NULL`,
    [batch.classification_ids, batch.workflow_ids ?? batch.classification_ids.map(() => null)],
  );
}

/** The graphile-worker task of the inbox's batch jobs. */
export const inboxTasks: TaskList = { [CLASSIFICATION_BATCH_TASK]: classificationBatch };

/** What a worker does with the inbox: runs it (built-in queue) or makes jobs of it (Inngest). How many left it. */
export const takeEngineInbox = (): Promise<number> => (inngestConfigured() ? dispatchEngineInbox(BATCH) : processEngineInbox());

const g = globalThis as unknown as { quorumInbox?: { timer: NodeJS.Timeout | null; stopped: boolean; running?: Promise<void> } };
const BATCH = 1000;
const intervalMs = () => Number(process.env.ENGINE_INBOX_POLL_MS ?? 25);
/** Consumers per process while classifications wait (ENGINE_INBOX_CONSUMERS, default 2). */
const consumers = () => Math.max(1, Number(process.env.ENGINE_INBOX_CONSUMERS ?? 2));

/**
 * Polls the inbox every ENGINE_INBOX_POLL_MS (default 25 ms) until stopped. When classifications wait,
 * `consumers()` loops take batches until none is left: under load each batch holds what arrived while the
 * one before ran, so batches grow with the rate and their fixed costs are shared by more classifications.
 */
export function startInboxDispatcher(): void {
  if (g.quorumInbox && !g.quorumInbox.stopped) return;
  const state: NonNullable<typeof g.quorumInbox> = (g.quorumInbox = { timer: null, stopped: false });
  const drain = async () => {
    while (!state.stopped && (await takeEngineInbox()) > 0) {
      // Took some: more may be waiting.
    }
  };
  const tick = async () => {
    // Every consumer ends before the next poll, so a process never runs more than consumers() at once.
    const ended = Promise.allSettled(Array.from({ length: inngestConfigured() ? 1 : consumers() }, drain));
    state.running = ended.then(() => {});
    for (const e of await ended)
      if (e.status === "rejected") logError("engine-inbox", "[engine] taking the inbox failed:", (e.reason as Error).message);
    state.running = undefined;
    if (!state.stopped) state.timer = setTimeout(tick, intervalMs()).unref();
  };
  state.timer = setTimeout(tick, 0).unref();
}

/**
 * Stops polling the inbox. Resolves when the batches in progress have committed (or rolled back): a
 * consumer finishes its batch and takes no other.
 */
export async function stopInboxDispatcher(): Promise<void> {
  if (!g.quorumInbox) return;
  g.quorumInbox.stopped = true;
  if (g.quorumInbox.timer) clearTimeout(g.quorumInbox.timer);
  await g.quorumInbox.running;
}
