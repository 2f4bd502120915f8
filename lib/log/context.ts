import { AsyncLocalStorage } from "node:async_hooks";

// What the log lines of one request (or of one background job) share: its request id, and the user once
// the request is authenticated. The server's edge (lib/net/peer-address.ts) opens a context for every HTTP
// request before Next sees it; the worker opens one for every job, with the id of the request that caused
// the job (carried in its payload). Everything logged meanwhile carries them (lib/log/logger.ts).
//
// The edge runs outside Next's bundles (preloaded by node --import), so the store is kept on globalThis
// under a registered symbol: the edge and the bundled route code reach the same one.

export interface LogContext {
  /** The request's id (X-Request-Id), or for a job the id of the request that caused it. */
  requestId?: string;
  /** The authenticated user, once known. */
  userId?: number;
  /** graphile-worker's job id and task, in a job. */
  jobId?: string;
  task?: string;
}

const STORE = Symbol.for("quorum.log-context");

function storage(): AsyncLocalStorage<LogContext> {
  const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<LogContext> | undefined>;
  g[STORE] ??= new AsyncLocalStorage<LogContext>();
  return g[STORE];
}

/** The context of the request or job running now, if any. */
export function logContext(): LogContext | undefined {
  return storage().getStore();
}

/** The id of the request running now (or that caused the job running now). */
export function currentRequestId(): string | undefined {
  return storage().getStore()?.requestId;
}

/** Runs fn in a context of its own (a job's). */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage().run(context, fn);
}

/** Records who the request running now is from (a verified token's or a session's user). */
export function noteRequestUser(userId: number): void {
  const c = storage().getStore();
  if (c && Number.isInteger(userId) && userId > 0) c.userId = userId;
}
