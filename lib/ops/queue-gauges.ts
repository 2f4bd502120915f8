import { readQueueState } from "@/lib/db/queue-state";
import { setMetricSource } from "@/lib/log/metrics";

// The gauges a scrape reads from the database (lib/log/metrics.ts): the engine inbox's depth and the age of
// its oldest row, and graphile-worker's jobs by state. One query per scrape (lib/db/queue-state.ts, which
// the admin console's figures read too), shared by the gauges.

/** The scrape-time database gauges: the engine inbox and the job queue, in one query. */
export function measureQueues(): void {
  setMetricSource("queues", readQueueState);
}
