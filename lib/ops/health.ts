import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { databaseReplicaUrl, databaseUrl } from "@/lib/env";
import { replicaLagMs } from "@/lib/db";
import { maxReplicaLagMs } from "@/lib/db/replica-lag";
import { serversClosing } from "@/lib/net/peer-address";

// GET /health and GET /ready, for load balancers and orchestrators (README, "Health, metrics and logs").
//
// /health: the process is alive and its event loop turns. No database: a database outage must not get
// every server process restarted.
// /ready: this process can serve now. Its checks, each named in the answer with what failed:
// - database: the primary answers within READY_TIMEOUT_MS (default 1000) on a connection of its own (so a
//   pool busy with requests does not take the process out of rotation);
// - migrations: every migration under prisma/migrations/ is applied (read in the same query, trusted for
//   30 s once current);
// - worker (when this process runs the background worker): its lease was renewed within
//   WORKER_LEASE_SECONDS;
// - shutdown: the process is not shutting down.
// The replica (DATABASE_REPLICA_URL) is reported, never failed: while it lags or is unreachable its reads
// go to the primary, and every instance shares it, so failing on it would take them all out together.
// The answer never carries an error's text (it can name hosts); the server log does.

export type CheckStatus = "ok" | "failed" | "degraded" | "skipped";
export interface Check {
  status: CheckStatus;
  error?: string;
  [detail: string]: unknown;
}
export interface Readiness {
  status: "ready" | "not ready";
  checks: Record<string, Check>;
}
export interface WorkerState {
  running: boolean;
  leaseAgeSeconds: number | null;
  leaseSeconds: number;
}

const timeoutMs = () => Math.max(50, Number(process.env.READY_TIMEOUT_MS ?? 1000));
const MIGRATIONS_TRUSTED_MS = 30_000;

const g = globalThis as unknown as { quorumHealthPool?: pg.Pool; quorumMigrationsCurrentAt?: number; quorumMigrationNames?: string[] };

/** One connection, kept open, for the checks. */
function healthPool(): pg.Pool {
  if (!g.quorumHealthPool) {
    g.quorumHealthPool = new pg.Pool({
      connectionString: databaseUrl(),
      max: 1,
      connectionTimeoutMillis: timeoutMs(),
      idleTimeoutMillis: 60_000,
      options: "-c TimeZone=UTC",
    });
    // A connection dropped while idle (the server restarted) is discarded; the next check connects anew.
    g.quorumHealthPool.on("error", () => {});
  }
  return g.quorumHealthPool;
}

/** The migrations this code expects: prisma/migrations/ as deployed beside it. */
function expectedMigrations(): string[] {
  if (!g.quorumMigrationNames) {
    const dir = path.join(process.cwd(), "prisma/migrations");
    g.quorumMigrationNames = fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => d.name)
      : [];
  }
  return g.quorumMigrationNames;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function databaseChecks(): Promise<{ database: Check; migrations: Check }> {
  const started = performance.now();
  const trusted = g.quorumMigrationsCurrentAt !== undefined && Date.now() - g.quorumMigrationsCurrentAt < MIGRATIONS_TRUSTED_MS;
  try {
    const sql = trusted
      ? "SELECT NULL::text[] AS applied"
      : "SELECT array_agg(migration_name) AS applied FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";
    const { rows } = await withTimeout(healthPool().query<{ applied: string[] | null }>(sql), timeoutMs());
    const database: Check = { status: "ok", ms: Math.round((performance.now() - started) * 10) / 10 };
    if (trusted) return { database, migrations: { status: "ok" } };
    const applied = new Set(rows[0].applied ?? []);
    const pending = expectedMigrations().filter((m) => !applied.has(m));
    if (pending.length) return { database, migrations: { status: "failed", error: `${pending.length} not applied`, pending } };
    g.quorumMigrationsCurrentAt = Date.now();
    return { database, migrations: { status: "ok" } };
  } catch (err) {
    const timedOut = (err as Error).message === "timeout" || /timeout/i.test((err as Error).message);
    if (timedOut) {
      // A connection stuck on a dead server: drop it, so the next check connects afresh.
      const stale = g.quorumHealthPool;
      g.quorumHealthPool = undefined;
      void stale?.end().catch(() => {});
    }
    return {
      database: { status: "failed", error: timedOut ? `no answer within ${timeoutMs()} ms` : "unreachable" },
      migrations: { status: "skipped" },
    };
  }
}

function workerCheck(worker: WorkerState | null): Check {
  if (!worker?.running) return { status: "skipped" };
  const age = worker.leaseAgeSeconds;
  if (age === null) return { status: "failed", error: "lease not yet renewed" };
  const leaseAgeSeconds = Math.round(age * 10) / 10;
  if (age > worker.leaseSeconds) return { status: "failed", error: `lease last renewed ${leaseAgeSeconds} s ago`, leaseAgeSeconds };
  return { status: "ok", leaseAgeSeconds };
}

function replicaCheck(): Check {
  if (!databaseReplicaUrl()) return { status: "skipped" };
  const lag = replicaLagMs();
  const max = maxReplicaLagMs(process.env.DATABASE_REPLICA_MAX_LAG_MS);
  if (lag === null || !Number.isFinite(lag)) return { status: "degraded", error: "unreachable or not a standby: reads go to the primary" };
  if (lag > max) return { status: "degraded", error: "behind: reads go to the primary", lagMs: Math.round(lag) };
  return { status: "ok", lagMs: Math.round(lag) };
}

/** The readiness of this process (see above); `worker` is the background worker's state when this process runs it. */
export async function readiness(worker: WorkerState | null): Promise<Readiness> {
  const checks: Record<string, Check> = {
    ...(await databaseChecks()),
    worker: workerCheck(worker),
    replica: replicaCheck(),
    shutdown: serversClosing() ? { status: "failed", error: "shutting down" } : { status: "ok" },
  };
  const failed = Object.values(checks).some((c) => c.status === "failed");
  return { status: failed ? "not ready" : "ready", checks };
}

/** Closes the checks' connection (shutdown, tests). */
export async function closeHealthChecks(): Promise<void> {
  const p = g.quorumHealthPool;
  g.quorumHealthPool = undefined;
  g.quorumMigrationsCurrentAt = undefined;
  await p?.end().catch(() => {});
}
