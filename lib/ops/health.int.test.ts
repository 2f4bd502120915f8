// GET /health and GET /ready against a PostgreSQL of this file's own, stopped and started again: /health
// answers 200 throughout (it needs no database); /ready answers 200 with every check named, 503 naming the
// check that failed (the database stopped, a migration not applied, the worker's lease not renewed, the
// process shutting down), promptly, and 200 again once the cause is gone. A replica that is not a standby
// is reported as degraded without failing the process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, pool } from "@/lib/db";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrateJobQueue } from "@/lib/db/job-queue";
import { applyMigrations } from "@/lib/db/migrations";
import { startWorker, stopWorker } from "@/lib/jobs/worker";
import { closeServers } from "@/lib/net/peer-address";
import { call } from "@/test/http";
import { closeHealthChecks } from "./health";

let database: EmbeddedDatabase | null = null;
let dir: string;
let port: number;

const start = async () => {
  database = await startEmbeddedPostgres({ dataDir: dir, port, persistent: true });
  return database;
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-health-"));
  port = await freePort();
  const db = await start();
  await applyMigrations(db.url);
  await migrateJobQueue(db.url);
  await closeDb();
  process.env.DATABASE_URL = db.url;
  process.env.READY_TIMEOUT_MS = "1000";
}, 120_000);

afterAll(async () => {
  await stopWorker();
  await closeHealthChecks();
  await closeDb();
  await database?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ready() {
  const t0 = performance.now();
  const res = await call("GET", "/ready", { accept: "application/json" });
  return { ...res, ms: performance.now() - t0 };
}

describe("/health and /ready", () => {
  it("/health is a 200 that needs nothing", async () => {
    const res = await call("GET", "/health", { accept: "application/json" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toMatch(/^no-store\b/);
  });

  it("/ready is a 200 naming every check, and cheap enough to poll every second", async () => {
    const first = await ready();
    expect(first.status, first.text).toBe(200);
    expect(first.body.status).toBe("ready");
    expect(Object.keys(first.body.checks).sort()).toEqual(["database", "migrations", "replica", "shutdown", "worker"]);
    expect(first.body.checks.database.status).toBe("ok");
    expect(first.body.checks.migrations.status).toBe("ok");
    expect(first.body.checks.worker.status).toBe("skipped"); // this process runs no worker (yet)
    expect(first.body.checks.replica.status).toBe("skipped");
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push((await ready()).ms);
    times.sort((a, b) => a - b);
    expect(times[10]).toBeLessThan(20);
  });

  it("a migration not applied fails /ready, naming it", async () => {
    await closeHealthChecks(); // forget that the migrations were current
    const [latest] = (
      await pool().query<{ migration_name: string }>(`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`)
    ).rows;
    await pool().query(`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1`, [latest.migration_name]);
    try {
      const res = await ready();
      expect(res.status).toBe(503);
      expect(res.body.status).toBe("not ready");
      expect(res.body.checks.database.status).toBe("ok");
      expect(res.body.checks.migrations).toEqual({ status: "failed", error: "1 not applied", pending: [latest.migration_name] });
    } finally {
      await pool().query(`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = $1`, [latest.migration_name]);
    }
    expect((await ready()).status).toBe(200);
  });

  it("the database stopped: /ready answers 503 'database' promptly while /health stays 200; both recover when it returns", async () => {
    await database!.stop();
    database = null;
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body.checks.database).toEqual({ status: "failed", error: expect.stringMatching(/unreachable|no answer within 1000 ms/) });
    expect(down.body.checks.migrations.status).toBe("skipped");
    // No error text (it can name hosts and ports) in the answer.
    expect(down.text).not.toContain(String(port));
    expect(down.ms).toBeLessThan(1500);
    expect((await call("GET", "/health", { accept: "application/json" })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await ready()).status).toBe(503);

    await start();
    const deadline = Date.now() + 10_000;
    let back = await ready();
    while (back.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      back = await ready();
    }
    expect(back.status, back.text).toBe(200);
    expect(back.body.checks.database.status).toBe("ok");
  }, 60_000);

  it("in a process that runs the worker: a lease not renewed within WORKER_LEASE_SECONDS fails /ready 'worker'", async () => {
    process.env.WORKER_LEASE_SECONDS = "1";
    await startWorker(1);
    try {
      const fresh = await ready();
      expect(fresh.status, fresh.text).toBe(200);
      expect(fresh.body.checks.worker).toEqual({ status: "ok", leaseAgeSeconds: expect.any(Number) });
      // The lease table locked: renewals wait, the database itself still answers.
      const blocker = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await blocker.connect();
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE worker_leases IN ACCESS EXCLUSIVE MODE");
      try {
        await new Promise((r) => setTimeout(r, 1800));
        const stale = await ready();
        expect(stale.status).toBe(503);
        expect(stale.body.checks.database.status).toBe("ok");
        expect(stale.body.checks.worker).toEqual({
          status: "failed",
          error: expect.stringMatching(/^lease last renewed [\d.]+ s ago$/),
          leaseAgeSeconds: expect.any(Number),
        });
      } finally {
        await blocker.query("ROLLBACK");
        await blocker.end();
      }
      const deadline = Date.now() + 5000;
      let again = await ready();
      while (again.status !== 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        again = await ready();
      }
      expect(again.status, again.text).toBe(200);
    } finally {
      await stopWorker();
      delete process.env.WORKER_LEASE_SECONDS;
    }
  }, 30_000);

  it("a replica that is not a standby is reported degraded, and the process stays ready", async () => {
    process.env.DATABASE_REPLICA_URL = process.env.DATABASE_URL;
    try {
      const deadline = Date.now() + 5000;
      let res = await ready();
      while (res.body.checks.replica.status === "skipped" && Date.now() < deadline) res = await ready();
      expect(res.status).toBe(200);
      expect(res.body.checks.replica).toEqual({ status: "degraded", error: "unreachable or not a standby: reads go to the primary" });
    } finally {
      delete process.env.DATABASE_REPLICA_URL;
      await closeDb();
    }
  });

  it("a process shutting down is not ready", async () => {
    expect(await closeServers(10)).toBe(0);
    const res = await ready();
    expect(res.status).toBe(503);
    expect(res.body.checks.shutdown).toEqual({ status: "failed", error: "shutting down" });
  });
});
