import { run, runOnce, type Runner } from "graphile-worker";
import { databaseUrl } from "@/lib/env";
import { startCountFolder, stopCountFolder } from "@/lib/domain/fold-classification-counts";
import { tasks } from "./tasks";

const g = globalThis as unknown as { quorumWorker?: Promise<Runner> };

/** Starts the in-process worker once per process (the Next server calls this from instrumentation.ts). */
export function startWorker(concurrency = Number(process.env.WORKER_CONCURRENCY ?? 4)): Promise<Runner> {
  startCountFolder();
  g.quorumWorker ??= run({ connectionString: databaseUrl(), concurrency, taskList: tasks, crontab: "", noHandleSignals: true, pollInterval: 500 });
  return g.quorumWorker;
}

export async function stopWorker(): Promise<void> {
  stopCountFolder();
  const runner = await g.quorumWorker;
  g.quorumWorker = undefined;
  await runner?.stop();
}

/** Runs every job that is due now, then returns (tests, one-shot scripts). */
export async function drainJobs(): Promise<void> {
  await runOnce({ connectionString: databaseUrl(), taskList: tasks });
}
