// npm run worker: a separate background-job worker process (scale-out), against DATABASE_URL.
// Its log is the server's (JSON lines, readable in a terminal); WORKER_METRICS_PORT serves its metrics
// (the pipeline's latencies, job failures, pools, the queue gauges) on 127.0.0.1 (WORKER_METRICS_HOST).
// SIGTERM lets the batches and jobs in progress finish (within SHUTDOWN_TIMEOUT_MS), then exits.
import "./require-node";
import { startWorker, stopWorker } from "../lib/jobs/worker";
import { routeConsoleToLog } from "../lib/log/logger";
import { listenForMetrics } from "../lib/ops/metrics";
import { measureQueues } from "../lib/ops/queue-gauges";

routeConsoleToLog();
if (!process.env.DATABASE_URL) {
  console.error("npm run worker needs DATABASE_URL (the database `npm start` uses)");
  process.exit(2);
}
await startWorker();
measureQueues();
if (process.env.WORKER_METRICS_PORT) {
  const host = process.env.WORKER_METRICS_HOST ?? "127.0.0.1";
  await listenForMetrics(Number(process.env.WORKER_METRICS_PORT), host);
  console.log(`worker metrics at http://${host}:${process.env.WORKER_METRICS_PORT}/metrics`);
}
console.log("worker running");
const bound = Math.max(1000, Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000));
for (const sig of ["SIGINT", "SIGTERM"] as const)
  process.once(sig, () => {
    setTimeout(() => {
      console.error(`[worker] ${sig}: jobs still running after ${bound} ms; exiting`);
      process.exit(1);
    }, bound).unref();
    void stopWorker().then(() => process.exit(0));
  });
