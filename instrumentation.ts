// Next.js start-up hook: the server process's log, request log and metrics, graceful shutdown, and the
// background job worker (set WORKER=off to run workers separately with `npm run worker`).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Client addresses from the socket unless TRUST_PROXY says otherwise (scripts/start.ts preloads the
  // same edge; installing again is a no-op, and covers a server started another way).
  const { installPeerAddress } = await import("./lib/net/peer-address");
  installPeerAddress();
  // Every line as JSON (readable in a terminal), one per request, and the metrics (README, "Health,
  // metrics and logs").
  const { routeConsoleToLog } = await import("./lib/log/logger");
  routeConsoleToLog();
  const { logRequests } = await import("./lib/ops/request-log");
  logRequests();
  const { offerClusterMetrics } = await import("./lib/ops/metrics");
  offerClusterMetrics();
  if (process.env.GC_PAUSE_LOG_MS) (await import("./lib/log/gc-pauses")).logGcPauses();
  const runsWorker = process.env.WORKER !== "off" && !!process.env.DATABASE_URL;
  const worker = runsWorker ? await import("./lib/jobs/worker") : null;
  const { shutdownOnSignals } = await import("./lib/ops/shutdown");
  shutdownOnSignals({ stopWorker: worker?.stopWorker });
  if (!process.env.DATABASE_URL) return;
  (await import("./lib/ops/queue-gauges")).measureQueues();
  await worker?.startWorker();
}
