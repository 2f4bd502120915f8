import { rawExecutor, type Sql } from "@/lib/db/sql";
import { enqueue } from "@/lib/db/job-queue";
import { EXTERNAL_EVENTS, eventKey, type EngineEvent } from "./events";

/** Attempts of a stage or action that calls an outside service before it is left failed (ENGINE_MAX_ATTEMPTS). */
export const maxExternalAttempts = () => Number(process.env.ENGINE_MAX_ATTEMPTS ?? 5);

/** An event to enqueue, with the id of the request that caused it when it is not the request running now. */
export type QueuedEvent = EngineEvent & { requestId?: string | null };

/**
 * Adds events as graphile-worker jobs in the caller's transaction, so an event exists if and only if its
 * cause committed. A pending job with the same key is replaced, so a burst of changes coalesces.
 */
export async function enqueueEvents(client: Sql, events: QueuedEvent[]): Promise<void> {
  const exec = rawExecutor(client);
  for (const e of events) {
    await enqueue(exec, e.name, e.data, {
      jobKey: eventKey(e),
      maxAttempts: EXTERNAL_EVENTS.includes(e.name) ? maxExternalAttempts() : 25,
      requestId: e.requestId,
    });
  }
}
