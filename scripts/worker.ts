// npm run worker: a separate background-job worker process (scale-out), against DATABASE_URL.
import "./require-node";
import { startWorker, stopWorker } from "../lib/jobs/worker";

if (!process.env.DATABASE_URL) {
  console.error("npm run worker needs DATABASE_URL (the database `npm start` uses)");
  process.exit(2);
}
await startWorker();
console.log("worker running");
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void stopWorker().then(() => process.exit(0)));
