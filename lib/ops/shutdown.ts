import { closeDb } from "@/lib/db";
import { log } from "@/lib/log/logger";
import { closeServers, requestsInFlight, takeSignals } from "@/lib/net/peer-address";
import { closeHealthChecks } from "./health";

// Graceful shutdown of a server process on SIGTERM (or SIGINT): it stops taking connections (and /ready
// answers 503 from then on), finishes the requests in flight, and lets the engine's inbox consumers finish
// the batches they hold and the job workers their jobs, all within SHUTDOWN_TIMEOUT_MS (default 25000,
// inside Kubernetes' default 30 s grace period); then it closes its database connections and exits 0. What
// is still running when the time is up is logged and the process exits 1: a request cut off that way
// fails its client, a batch or a job cut off is rolled back and taken up by another process (nothing
// committed is lost either way). Next's own signal handling (which exits as soon as the server has closed,
// with the worker mid-batch) is replaced.

export interface ShutdownSteps {
  /** Stops the background worker: resolves when the batches and jobs it holds are done. */
  stopWorker?: () => Promise<void>;
}

const timeoutMs = () => Math.max(1000, Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000));

/** Stops the process gracefully (see above); `exit` is process.exit but for tests. */
export async function shutdown(steps: ShutdownSteps, signal: string, exit: (code: number) => void = process.exit): Promise<void> {
  const logger = log();
  // Holds the process open until `exit` below: what shutdown waits on (a worker's sleep, a pool's end) may
  // hold no handle of its own, and a process whose event loop runs dry exits 0 there, before its last line.
  const keepAlive = setInterval(() => {}, 60_000);
  const started = Date.now();
  const deadline = started + timeoutMs();
  logger.info({ signal, requestsInFlight: requestsInFlight() }, `[shutdown] ${signal}: no new connections; finishing what is in flight`);
  let workerDone = !steps.stopWorker;
  const worker = steps.stopWorker?.().then(
    () => void (workerDone = true),
    (err) => logger.error({ err }, "[shutdown] stopping the worker failed"),
  );
  const [abandoned] = await Promise.all([
    closeServers(timeoutMs()),
    Promise.race([worker, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref())]),
  ]);
  const clean = abandoned === 0 && workerDone;
  await Promise.race([Promise.all([closeHealthChecks(), closeDb().catch(() => {})]), new Promise((r) => setTimeout(r, 2000).unref())]);
  const line = { signal, ms: Date.now() - started, requestsAbandoned: abandoned, workerStopped: workerDone };
  if (clean) logger.info(line, "[shutdown] stopped cleanly");
  else logger.error(line, "[shutdown] time is up: stopping with work still in flight");
  logger.flush();
  clearInterval(keepAlive);
  exit(clean ? 0 : 1);
}

/** Handles SIGTERM and SIGINT in this server process with `shutdown` (once). */
export function shutdownOnSignals(steps: ShutdownSteps): void {
  let started = false;
  takeSignals();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // Next's handlers (and any other) would exit before the worker is done.
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (started) return;
      started = true;
      void shutdown(steps, signal);
    });
  }
}
