import { Logger, run, runOnce, type Runner, type TaskList } from "graphile-worker";
import { databaseUrl } from "@/lib/env";
import { startCountFolder, stopCountFolder } from "@/lib/domain/fold-classification-counts";
import { startProjectStatsRefresher, stopProjectStatsRefresher } from "@/lib/domain/project-stats";
import { pruneRateLimits } from "@/lib/http/rate-limit";
import { dispatchEngineInbox, startInboxDispatcher, stopInboxDispatcher } from "@/lib/engine/run/engine-inbox";
import { engineTasks, externalEngineTasks } from "@/lib/engine/run/pipeline";
import { tasks } from "./tasks";
import { WorkerLeases } from "./worker-leases";

const g = globalThis as unknown as { quorumWorkers?: Promise<Runner[]>; quorumLeases?: WorkerLeases; quorumHousekeeping?: NodeJS.Timeout };

/** Hourly: drops abuse-limit windows that ended long ago. */
function startHousekeeping() {
  if (g.quorumHousekeeping) return;
  g.quorumHousekeeping = setInterval(() => void pruneRateLimits().catch((err) => console.error("[housekeeping]", err)), 3600_000);
  g.quorumHousekeeping.unref();
}

const mainTasks = (): TaskList => ({ ...tasks, ...engineTasks });

/** Warnings and errors only: a line per completed job would drown the server's log at pipeline rates. */
const logger = new Logger(() => (level, message) => {
  if (level === "error") console.error(`[worker] ${message}`);
  else if (level === "warning") console.warn(`[worker] ${message}`);
});

/**
 * Starts the in-process workers once per process (the Next server calls this from instrumentation.ts):
 * one for the app's own jobs and engine stages, and one for the stages that call external services
 * (WORKER_EXTERNAL_CONCURRENCY), so a slow or failing service never holds up the rest.
 */
export function startWorker(concurrency = Number(process.env.WORKER_CONCURRENCY ?? 4)): Promise<Runner[]> {
  startCountFolder();
  startProjectStatsRefresher();
  startHousekeeping();
  startInboxDispatcher();
  if (g.quorumWorkers) return g.quorumWorkers;
  const leases = (g.quorumLeases = new WorkerLeases());
  const common = { connectionString: databaseUrl(), crontab: "", noHandleSignals: true, pollInterval: 500, logger, events: leases.events };
  g.quorumWorkers = leases.start().then(() =>
    Promise.all([
      run({ ...common, concurrency, taskList: mainTasks() }),
      run({ ...common, concurrency: Number(process.env.WORKER_EXTERNAL_CONCURRENCY ?? 4), taskList: externalEngineTasks }),
    ]),
  );
  return g.quorumWorkers;
}

export async function stopWorker(): Promise<void> {
  stopCountFolder();
  stopProjectStatsRefresher();
  if (g.quorumHousekeeping) clearInterval(g.quorumHousekeeping);
  g.quorumHousekeeping = undefined;
  stopInboxDispatcher();
  const runners = await g.quorumWorkers;
  g.quorumWorkers = undefined;
  g.quorumLeases?.stop();
  await Promise.all((runners ?? []).map((r) => r.stop()));
}

/** Runs every job that is due now, then returns (tests, one-shot scripts). */
export async function drainJobs(): Promise<void> {
  while ((await dispatchEngineInbox()) > 0) {
    // Classifications waiting for the engine become jobs first.
  }
  await runOnce({ connectionString: databaseUrl(), logger, taskList: { ...mainTasks(), ...externalEngineTasks } });
}
