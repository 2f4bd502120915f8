import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

// The server's metrics, in the Prometheus format at /metrics (lib/ops/metrics.ts serves them, summed over
// the WEB_CONCURRENCY processes). Every metric is defined here, once per process (the set is kept on
// globalThis: Next's bundles and the preloaded edge may load this module more than once); the code that
// observes one imports `metrics()`. Gauges that read a state when scraped (database pools, replica lag,
// the inbox and the job queue) take their values from the sources set with `setMetricSource`.
//
// `aggregator` says how a scrape of a multi-process instance combines the processes' values: counters and
// histograms are summed; a gauge of the process's own (its pool) is summed; a gauge every process reads from
// the shared database (inbox depth, jobs) is its maximum, so it is not counted once per process.

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PIPELINE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

/** What the scrape-time gauges read. Each is set by the code that owns the state. */
export interface MetricSources {
  /** Each database pool of this process: connections open, idle, and callers waiting for one. */
  dbPools?: () => { pool: string; total: number; idle: number; waiting: number }[];
  /** The replica's lag in seconds (Infinity while unreachable); null without a replica. */
  replicaLag?: () => number | null;
  /** Read from the database at scrape time (null when it could not be read). */
  queues?: () => Promise<QueueState | null>;
}

export interface QueueState {
  inboxDepth: number;
  inboxOldestSeconds: number;
  /** graphile-worker's jobs by state. */
  jobs: { waiting: number; running: number; retrying: number; failed: number };
}

function create() {
  const registry = new Registry();
  const sources: MetricSources = {};
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const m = {
    registry,
    sources,
    queueRead: undefined as Promise<QueueState | null> | undefined,
    httpRequests: new Histogram({
      name: "quorum_http_request_duration_seconds",
      help: "HTTP requests by method, route pattern and status (0: the connection ended before the answer), and how long they took",
      labelNames: ["method", "route", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    classificationsCreated: new Counter({
      name: "quorum_classifications_created_total",
      help: "Classifications stored by POST /api/classifications (a replay of an Idempotency-Key is not counted)",
      registers: [registry],
    }),
    engineProcessed: new Counter({
      name: "quorum_engine_classifications_processed_total",
      help: "Classifications the engine's inbox consumers took and committed",
      registers: [registry],
    }),
    createToExtract: new Histogram({
      name: "quorum_engine_create_to_extract_seconds",
      help: "From a classification's create (its engine inbox row) to the commit of its extracts",
      buckets: PIPELINE_BUCKETS,
      registers: [registry],
    }),
    createToRetirement: new Histogram({
      name: "quorum_engine_create_to_retirement_seconds",
      help: "From the create of the classification that completed a subject's retirement to the retirement's commit",
      buckets: PIPELINE_BUCKETS,
      registers: [registry],
    }),
    jobFailures: new Counter({
      name: "quorum_jobs_failed_total",
      help: "Background job attempts that failed, by task (each is retried until its attempts run out)",
      labelNames: ["task"] as const,
      registers: [registry],
    }),
    inboxDepth: new Gauge({
      name: "quorum_engine_inbox_depth",
      help: "Classifications waiting in the engine's inbox",
      aggregator: "max",
      registers: [registry],
      async collect() {
        this.reset();
        const q = await queues(m);
        if (q) this.set(q.inboxDepth);
      },
    }),
    inboxOldest: new Gauge({
      name: "quorum_engine_inbox_oldest_age_seconds",
      help: "Age of the oldest classification waiting in the engine's inbox (0 when none waits)",
      aggregator: "max",
      registers: [registry],
      async collect() {
        this.reset();
        const q = await queues(m);
        if (q) this.set(q.inboxOldestSeconds);
      },
    }),
    jobs: new Gauge({
      name: "quorum_jobs",
      help: "Background jobs by state: waiting (to run, now or later), running, retrying (failed, will run again), failed (attempts used up)",
      labelNames: ["state"] as const,
      aggregator: "max",
      registers: [registry],
      async collect() {
        this.reset();
        const q = await queues(m);
        if (q) for (const [state, n] of Object.entries(q.jobs)) this.set({ state }, n);
      },
    }),
    databaseUp: new Gauge({
      name: "quorum_database_up",
      help: "1 when the scrape could read the queue gauges from the database, 0 when it could not",
      aggregator: "min",
      registers: [registry],
      async collect() {
        this.reset();
        if (m.sources.queues) this.set((await queues(m)) ? 1 : 0);
      },
    }),
    dbPool: new Gauge({
      name: "quorum_db_pool_connections",
      help: "Database connections of the processes' pools by pool (primary, replica) and state (in_use, idle), and callers waiting for one (waiting)",
      labelNames: ["pool", "state"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const p of sources.dbPools?.() ?? []) {
          this.set({ pool: p.pool, state: "in_use" }, p.total - p.idle);
          this.set({ pool: p.pool, state: "idle" }, p.idle);
          this.set({ pool: p.pool, state: "waiting" }, p.waiting);
        }
      },
    }),
    replicaLag: new Gauge({
      name: "quorum_db_replica_lag_seconds",
      help: "How far the read replica is behind the primary (+Inf while unreachable or not a standby)",
      aggregator: "max",
      // Only where a replica is configured.
      registers: process.env.DATABASE_REPLICA_URL ? [registry] : [],
      collect() {
        this.reset();
        const lag = sources.replicaLag?.();
        if (lag !== null && lag !== undefined) this.set(lag);
      },
    }),
  };
  return m;
}

export type Metrics = ReturnType<typeof create>;

/**
 * The queue state for a scrape: read once and shared by the gauges that show it (a scrape collects them
 * in one go), so a scrape costs the database one query. The read is shared while it is under way, never
 * after, and `scrape` starts each scrape with a read of its own: a scrape that took another's earlier read
 * would show a queue older than its counters (a drained inbox still full beside every retirement counted).
 */
function queues(m: Metrics): Promise<QueueState | null> {
  if (!m.queueRead) {
    const read: Promise<QueueState | null> = (m.sources.queues ? m.sources.queues().catch(() => null) : Promise.resolve(null)).finally(
      () => {
        if (m.queueRead === read) m.queueRead = undefined;
      },
    );
    m.queueRead = read;
  }
  return m.queueRead;
}

/** This process's metrics in Prometheus' text format, the queue gauges read for this scrape (see `queues`). */
export function scrape(): Promise<string> {
  const m = metrics();
  m.queueRead = undefined;
  return m.registry.metrics();
}

const KEY = Symbol.for("quorum.metrics");

/** This process's metrics. */
export function metrics(): Metrics {
  const g = globalThis as unknown as Record<symbol, Metrics | undefined>;
  g[KEY] ??= create();
  return g[KEY];
}

/** Sets where a scrape-time gauge reads its value. */
export function setMetricSource<K extends keyof MetricSources>(name: K, source: MetricSources[K]): void {
  metrics().sources[name] = source;
}
