import "../scripts/require-node";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrations";
import { migrateJobQueue } from "../lib/db/job-queue";

/** A database for a benchmark: DATABASE_URL if set, else a throwaway embedded one (tuned like the tests). */
export async function benchDatabase(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    await applyMigrations(process.env.DATABASE_URL);
    await migrateJobQueue(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL, stop: async () => {} };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-bench-"));
  const db = await startEmbeddedPostgres({ dataDir: dir, persistent: true });
  process.env.DATABASE_URL = db.url;
  process.env.DATA_DIR = dir;
  await applyMigrations(db.url);
  await migrateJobQueue(db.url);
  return {
    url: db.url,
    stop: async () => {
      await db.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summarize(latenciesMs: number[], wallMs: number) {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const r = (n: number) => Math.round(n * 100) / 100;
  return {
    count: sorted.length,
    throughput_per_s: r((sorted.length / wallMs) * 1000),
    p50_ms: r(percentile(sorted, 50)),
    p99_ms: r(percentile(sorted, 99)),
    max_ms: r(sorted[sorted.length - 1]),
  };
}

/** Runs `total` calls of fn with `concurrency` in flight; returns each call's latency and the wall time. */
export async function load(total: number, concurrency: number, fn: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await fn(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - t0 };
}

/** Validates an engine configuration as the API does and saves it for the project's workflow (the modules load on first use, after DATABASE_URL is set). */
export async function saveBenchEngineConfig(wire: Record<string, unknown>, projectId: number): Promise<void> {
  const { parseEngineWorkflowConfig } = await import("../lib/engine/config");
  const { saveEngineWorkflow } = await import("../lib/engine/run/workflow-config");
  const { withTransaction } = await import("../lib/db/sql");
  const config = parseEngineWorkflowConfig(wire);
  if (!config.ok) throw new Error(config.message);
  await withTransaction((client) => saveEngineWorkflow(client, config.value, projectId));
}
