import { Logger, run, runOnce, type Job, type Runner, type Task, type TaskList } from "graphile-worker";
import { withLogContext } from "@/lib/log/context";
import { log } from "@/lib/log/logger";
import { metrics } from "@/lib/log/metrics";
import { databaseUrl } from "@/lib/env";
import { startCountFolder, stopCountFolder } from "@/lib/domain/fold-classification-counts";
import { startProjectStatsRefresher, stopProjectStatsRefresher } from "@/lib/domain/project-stats";
import { pruneRateLimits } from "@/lib/auth/rate-limit";
import { inboxTasks, startInboxDispatcher, stopInboxDispatcher, takeEngineInbox } from "@/lib/engine/run/engine-inbox";
import { engineTasks, externalEngineTasks } from "@/lib/engine/run/pipeline";
import { tasks } from "./background-tasks";
import { WorkerLeases } from "./worker-leases";

const g = globalThis as unknown as {
  quorumWorkers?: Promise<SupervisedPool[]>;
  quorumLeases?: WorkerLeases;
  quorumHousekeeping?: NodeJS.Timeout;
};

/** Hourly: drops abuse-limit windows that ended long ago. */
function startHousekeeping() {
  if (g.quorumHousekeeping) return;
  g.quorumHousekeeping = setInterval(() => void pruneRateLimits().catch((err) => console.error("[housekeeping]", err)), 3600_000);
  g.quorumHousekeeping.unref();
}

/** The id of the request that caused a job (lib/db/job-queue.ts puts it in the payload). */
function requestIdOf(payload: unknown): string | undefined {
  const id = (payload as { request_id?: unknown } | null)?.request_id;
  return typeof id === "string" ? id : undefined;
}

/** Every task runs in a log context of its own: its lines carry the job, its task and the request that caused it. */
export function inJobContext(list: TaskList): TaskList {
  return Object.fromEntries(
    Object.entries(list).map(([name, task]) => [
      name,
      ((payload, helpers) =>
        withLogContext({ requestId: requestIdOf(payload), jobId: String(helpers.job.id), task: name }, () =>
          (task as Task)(payload, helpers),
        )) as Task,
    ]),
  );
}

const mainTasks = (): TaskList => inJobContext({ ...tasks, ...engineTasks, ...inboxTasks });
const externalTasks = (): TaskList => inJobContext(externalEngineTasks);

/**
 * Warnings and errors only: a line per completed job would drown the server's log at pipeline rates. A
 * failed job's line names the job, its task and the request that caused it, with the error's stack once.
 */
const logger = new Logger(() => (level, message, meta) => {
  const job = meta?.job as Job | undefined;
  const error = meta?.error;
  if (meta?.failure && job && error instanceof Error) {
    log().error(
      { err: error, requestId: requestIdOf(job.payload), jobId: String(job.id), task: job.task_identifier },
      `[worker] job ${job.id} (${job.task_identifier}) failed, attempt ${job.attempts} of ${job.max_attempts}`,
    );
  } else if (level === "error") console.error(`[worker] ${message}`);
  else if (level === "warning") console.warn(`[worker] ${message}`);
});

/**
 * A worker pool kept running: graphile-worker shuts a pool down when one of its workers cannot record a
 * job's outcome (the database went away mid-job), so a pool that ends while we are not stopping is started
 * again, with a growing delay while the database stays unreachable. The ended pool's jobs are unlocked
 * when its lease lapses (lib/jobs/worker-leases.ts).
 */
export class SupervisedPool {
  private current: Runner | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  /** Resolves after the first attempt to start, whether it worked or not. */
  readonly firstStart: Promise<void>;

  constructor(
    private readonly name: string,
    private readonly start: () => Promise<Runner>,
  ) {
    let started!: () => void;
    this.firstStart = new Promise((r) => (started = r));
    void this.loop(started);
  }

  private async loop(started: () => void) {
    let delay = 1000;
    while (!this.stopped) {
      try {
        this.current = await this.start();
        started();
        delay = 1000;
        await this.current.promise;
      } catch (err) {
        started();
        console.error(`[worker] the ${this.name} pool ended: ${(err as Error).message}`);
      }
      this.current = null;
      if (this.stopped) break;
      console.warn(`[worker] starting the ${this.name} pool again in ${delay} ms`);
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, delay).unref();
      });
      delay = Math.min(delay * 2, 30_000);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.current?.stop().catch(() => {});
  }
}

/**
 * Starts the in-process workers once per process (the Next server calls this from instrumentation.ts):
 * one pool for the app's own jobs and engine stages, and one for the stages that call external services
 * (WORKER_EXTERNAL_CONCURRENCY), so a slow or failing service never holds up the rest.
 */
export async function startWorker(concurrency = Number(process.env.WORKER_CONCURRENCY ?? 4)): Promise<void> {
  startCountFolder();
  startProjectStatsRefresher();
  startHousekeeping();
  startInboxDispatcher();
  if (!g.quorumWorkers) {
    const leases = (g.quorumLeases = new WorkerLeases());
    leases.events.on("job:error", ({ job }) => metrics().jobFailures.inc({ task: job.task_identifier }));
    const common = {
      connectionString: databaseUrl(),
      crontab: "",
      noHandleSignals: true,
      pollInterval: 500,
      logger,
      events: leases.events,
    };
    g.quorumWorkers = leases
      .start()
      .then(() => [
        new SupervisedPool("main", () => run({ ...common, concurrency, taskList: mainTasks() })),
        new SupervisedPool("external", () =>
          run({ ...common, concurrency: Number(process.env.WORKER_EXTERNAL_CONCURRENCY ?? 4), taskList: externalTasks() }),
        ),
      ]);
  }
  await Promise.all((await g.quorumWorkers).map((p) => p.firstStart));
}

export async function stopWorker(): Promise<void> {
  stopCountFolder();
  stopProjectStatsRefresher();
  if (g.quorumHousekeeping) clearInterval(g.quorumHousekeeping);
  g.quorumHousekeeping = undefined;
  const inbox = stopInboxDispatcher();
  const pools = await g.quorumWorkers?.catch(() => []);
  g.quorumWorkers = undefined;
  g.quorumLeases?.stop();
  await Promise.all([inbox, ...(pools ?? []).map((p) => p.stop())]);
}

/**
 * Whether this process runs the worker, and how long ago it last renewed its lease (null before the first
 * renewal): /ready fails while the lease is older than WORKER_LEASE_SECONDS.
 */
export function workerStatus(): { running: boolean; leaseAgeSeconds: number | null; leaseSeconds: number } {
  const leases = g.quorumLeases;
  const renewed = leases?.renewedAt ?? null;
  return {
    running: !!g.quorumWorkers,
    leaseAgeSeconds: renewed === null ? null : (Date.now() - renewed) / 1000,
    leaseSeconds: Number(process.env.WORKER_LEASE_SECONDS ?? 30),
  };
}

/** Runs every job that is due now, then returns (tests, one-shot scripts). */
export async function drainJobs(): Promise<void> {
  while ((await takeEngineInbox()) > 0) {
    // Classifications waiting for the engine are run (or, with Inngest, made jobs) first.
  }
  await runOnce({ connectionString: databaseUrl(), logger, taskList: { ...mainTasks(), ...externalTasks() } });
}
