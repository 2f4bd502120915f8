// The read replica (lib/db/index.ts readDb/readPool) against a real PostgreSQL primary and a streaming replica
// of it (test/streaming-replica.ts). Replay on the replica is paused while a write is made through the
// API, so what each read answers shows which server served it: the write's own answer, a show and the
// pipeline see it at once (the primary); lists, their counts, the public counts, an export and the engine
// API's lists do not until the replica has replayed it.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkReplica, closeDb, db, pool, readDb, readPool } from "@/lib/db";
import { applyMigrations } from "@/lib/db/migrations";
import { foldClassificationCounts } from "@/lib/domain/fold-classification-counts";
import { migrateJobQueue } from "@/lib/db/job-queue";
import { drainJobs } from "@/lib/jobs/worker";
import { engine, drainPipeline } from "@/test/engine";
import { classifiableProject, classificationBody, signedInUser, uid } from "@/test/factories";
import { api, call } from "@/test/http";
import { postgresBinDir, startPrimaryAndReplica, type PrimaryAndReplica } from "@/test/streaming-replica";

const bin = postgresBinDir();
const ci = !!process.env.CI && process.env.CI !== "false";
const ENV = ["DATABASE_URL", "DATABASE_REPLICA_URL", "DATABASE_REPLICA_MAX_LAG_MS"] as const;

// Without the binaries the test is skipped on a developer's machine (reported as skipped), never in CI.
describe.skipIf(!bin && !ci)("read replica", () => {
  let cluster: PrimaryAndReplica;
  let primary: pg.Client;
  let replica: pg.Client;
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

  /** Waits until the replica has replayed everything the primary had written when called. */
  async function caughtUp() {
    const target = (await primary.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0].lsn;
    for (let i = 0; i < 200; i++) {
      const { rows } = await replica.query<{ ok: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [target]);
      if (rows[0].ok) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("the replica did not catch up in 5 s");
  }

  /**
   * Waits until the replica has caught up and the read client has seen it (the first check of a replica
   * behind the primary, which a background write such as the server's own snapshot records can make it,
   * has no earlier position to measure from: it answers Infinity, and the next one a lag).
   */
  async function replicaInUse() {
    for (let i = 0; i < 20; i++) {
      await caughtUp();
      if ((await checkReplica()) < 60_000) return;
    }
    throw new Error("the read client never took the replica");
  }

  const inRecovery = async (client: { $queryRawUnsafe<T>(sql: string): Promise<T> }) =>
    (await client.$queryRawUnsafe<{ r: boolean }[]>("SELECT pg_is_in_recovery() AS r"))[0].r;

  /** Runs fn with replay on the replica paused: the primary's writes meanwhile are not on the replica. */
  async function replayPaused<T>(fn: () => Promise<T>): Promise<T> {
    await replica.query("SELECT pg_wal_replay_pause()");
    try {
      return await fn();
    } finally {
      await replica.query("SELECT pg_wal_replay_resume()");
    }
  }

  beforeAll(async () => {
    if (!bin)
      throw new Error("No PostgreSQL server under /usr/lib/postgresql/<version>/bin: install Debian's postgresql package (.ci/run does)");
    cluster = await startPrimaryAndReplica(bin);
    primary = new pg.Client({ connectionString: cluster.primaryUrl });
    replica = new pg.Client({ connectionString: cluster.replicaUrl });
    await Promise.all([primary.connect(), replica.connect()]);
    const citext = await primary.query("SELECT 1 FROM pg_available_extensions WHERE name = 'citext'");
    if (!citext.rowCount) throw new Error(`${cluster.version} lacks the citext extension our migrations need (its contrib modules)`);
    await applyMigrations(cluster.primaryUrl);
    await migrateJobQueue(cluster.primaryUrl);
    await closeDb();
    process.env.DATABASE_URL = cluster.primaryUrl;
    process.env.DATABASE_REPLICA_URL = cluster.replicaUrl;
    process.env.DATABASE_REPLICA_MAX_LAG_MS = "60000";
    const { ensureBootstrapRecords } = await import("@/lib/domain/ensure-bootstrap-records");
    await ensureBootstrapRecords();
  }, 120_000);

  afterAll(async () => {
    await closeDb();
    for (const k of ENV) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await Promise.all([primary?.end(), replica?.end()]);
    await cluster?.stop();
  });

  it("hands out the replica for reads that tolerate lag, and the primary for everything else", async () => {
    await replicaInUse();
    expect(await inRecovery(readDb())).toBe(true);
    expect((await readPool().query("SELECT pg_is_in_recovery() AS r")).rows[0].r).toBe(true);
    expect(await inRecovery(db())).toBe(false);
  });

  it("a write through the API is on the primary at once; lists, counts, exports and the engine's lists read the replica, which has it once replayed", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(1);
    const volunteer = await signedInUser();
    const config = {
      id: workflow.id,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { n: { type: "count" } },
      rules_config: [],
    };
    expect((await engine.post("/workflows", { workflow: config }, owner.token)).status).toBe(201);
    await replicaInUse();

    const lists = async () => ({
      classifications: (await api.get(`/classifications/project?project_id=${project.id}`, { token: owner.token })).body,
      counts: (await call("GET", `/counts/classifications?project_id=${project.id}`, { accept: "application/json" })).body,
      extracts: (await engine.get(`/workflows/${workflow.id}/extractors/q/extracts?subject_id=${subjects[0].id}`, owner.token)).body,
      reductions: (await engine.get(`/workflows/${workflow.id}/reductions`, owner.token)).body,
    });
    const exported = async () => {
      const path = `/workflows/${workflow.id}/classifications_export`;
      expect((await api.post(path, {}, { token: owner.token })).status).toBe(201);
      await drainJobs();
      return (await api.get(path, { token: owner.token })).body.linked.background_jobs[0];
    };

    const id = await replayPaused(async () => {
      const created = await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: volunteer.token });
      expect(created.status).toBe(201);
      const id = created.body.classifications[0].id as string;
      // On the primary at once: the show, the primary itself, and the pipeline (which reduces the extract
      // it has just written: it must not read the replica).
      expect((await api.get(`/classifications/${id}`, { token: volunteer.token })).status).toBe(200);
      expect((await primary.query("SELECT 1 FROM classifications WHERE id = $1", [id])).rowCount).toBe(1);
      await drainPipeline();
      await foldClassificationCounts();
      expect((await primary.query("SELECT data FROM subject_reductions WHERE workflow_id = $1", [workflow.id])).rows).toMatchObject([
        { data: { classifications: 1 } },
      ]);
      expect(
        (await primary.query("SELECT count FROM classification_daily_counts WHERE scope = 'project' AND scope_id = $1", [project.id])).rows,
      ).toEqual([{ count: 1 }]);
      // Not on the replica: whatever the read client answers, the replica answered.
      expect((await replica.query("SELECT 1 FROM classifications WHERE id = $1", [id])).rowCount).toBe(0);
      expect(await checkReplica()).toBeLessThan(60_000);
      const before = await lists();
      expect(before.classifications.classifications).toEqual([]);
      expect(before.classifications.meta.classifications.count).toBe(0);
      expect(before.counts).toEqual({ total_count: 0 });
      expect(before.extracts).toEqual([]);
      expect(before.reductions).toEqual([]);
      expect(await exported()).toMatchObject({ status: "completed", total: 0, progress: 0 });
      return id;
    });

    await replicaInUse();
    expect(await inRecovery(readDb())).toBe(true);
    const after = await lists();
    expect(after.classifications.classifications.map((c: { id: string }) => c.id)).toEqual([id]);
    expect(after.classifications.meta.classifications.count).toBe(1);
    expect(after.counts).toEqual({ total_count: 1 });
    expect(after.extracts.map((e: { classification_id: number }) => String(e.classification_id))).toEqual([id]);
    expect(after.reductions).toMatchObject([{ subject_id: subjects[0].id, data: { classifications: 1 } }]);
    expect(await exported()).toMatchObject({ status: "completed", total: 1, progress: 1 });
  });

  it("a replica further behind than DATABASE_REPLICA_MAX_LAG_MS leaves the reads to the primary until it catches up", async () => {
    const { token } = await signedInUser();
    await replicaInUse();
    const name = `Lagged ${uid()}`;
    const listed = async () =>
      (await api.get(`/projects?display_name=${encodeURIComponent(name)}`, { token })).body.projects.map(
        (p: { display_name: string }) => p.display_name,
      );
    try {
      await replayPaused(async () => {
        expect((await api.post("/projects", { projects: { display_name: name, primary_language: "en" } }, { token })).status).toBe(201);
        await checkReplica();
        expect(await listed()).toEqual([]);
        process.env.DATABASE_REPLICA_MAX_LAG_MS = "0";
        await new Promise((r) => setTimeout(r, 20));
        expect(await checkReplica()).toBeGreaterThan(0);
        expect(await inRecovery(readDb())).toBe(false);
        expect(await listed()).toEqual([name]);
      });
      await replicaInUse();
      expect(await inRecovery(readDb())).toBe(true);
      expect(await listed()).toEqual([name]);
    } finally {
      process.env.DATABASE_REPLICA_MAX_LAG_MS = "60000";
    }
  });

  it("a replica that cannot be reached, or a server that is not a standby, leaves the reads to the primary", async () => {
    const replicaUrl = process.env.DATABASE_REPLICA_URL;
    try {
      for (const url of ["postgresql://postgres@127.0.0.1:1/quorum", cluster.primaryUrl]) {
        await closeDb();
        process.env.DATABASE_REPLICA_URL = url;
        expect(await checkReplica()).toBe(Infinity);
        expect(readPool()).toBe(pool());
        expect(await inRecovery(readDb())).toBe(false);
        expect(readDb()).toBe(db());
      }
      await closeDb();
      delete process.env.DATABASE_REPLICA_URL;
      expect(await checkReplica()).toBe(Infinity);
      expect(readDb()).toBe(db());
    } finally {
      await closeDb();
      process.env.DATABASE_REPLICA_URL = replicaUrl;
    }
  });
});
