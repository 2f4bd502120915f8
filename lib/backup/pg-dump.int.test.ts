import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysFile } from "@/lib/auth/keys";
import { closeDb } from "@/lib/db";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { localUploadsDir } from "@/lib/storage/storage";
import { file, query, tableCounts, type Upload, uploadSubject, useDatabase } from "@/test/backups";
import { drainPipeline, engine } from "@/test/engine";
import { migrateAndUse } from "@/test/migrate-and-use";
import { classifiableProject, classificationBody } from "@/test/factories";
import { api } from "@/test/http";
import { postgresBinDir, startDistributionServer } from "@/test/streaming-replica";
import { ArchiveWriter } from "./archive";
import { createBackup } from "./backup";
import { restoreBackup } from "./restore";

// npm run backup / restore with DATABASE_URL: pg_dump and pg_restore of the server's version, against the
// distribution's PostgreSQL (test/streaming-replica.ts; .ci/run installs it). The dump restores into
// another database of that server, over it again with --force, and into an embedded DATA_DIR (moving off
// a managed server), each time with every table's rows and the stored files.

const bin = postgresBinDir();
const ci = !!process.env.CI && process.env.CI !== "false";
const ENV = ["DATABASE_URL", "DATA_DIR"] as const;

// Without the binaries the test is skipped on a developer's machine (reported as skipped), never in CI.
describe.skipIf(!bin && !ci)("backup and restore with DATABASE_URL (pg_dump)", () => {
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-pgdump-test-"));
  fs.chmodSync(root, 0o755);
  const srcDir = path.join(root, "source");
  let server: Awaited<ReturnType<typeof startDistributionServer>>;
  const urlOf = (database: string) => server.url.replace(/\/quorum$/, `/${database}`);

  beforeAll(async () => {
    server = await startDistributionServer(bin!);
    await migrateAndUse(server.url, srcDir);
  }, 120_000);

  afterAll(async () => {
    await closeDb();
    await server?.stop();
    for (const k of ENV) process.env[k] = saved[k];
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("a pg_dump backup restores every row and file into another database, over it with --force, and into an embedded DATA_DIR", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(2);
    const engineConfig = {
      id: workflow.id,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "consensus" } },
    };
    expect((await engine.post("/workflows", { workflow: engineConfig }, owner.token)).status).toBe(201);
    for (const s of [...subjects, ...subjects])
      expect((await api.post("/classifications", classificationBody(workflow, [s.id]), { token: owner.token })).status).toBe(201);
    const uploads: Upload[] = [await uploadSubject(project.id, owner.token), await uploadSubject(project.id, owner.token)];
    await drainPipeline();
    await closeDb();
    const counts = await tableCounts(server.url);
    expect(counts["public.extracts"]).toBe(4);

    const backupFile = path.join(root, "dump.tar.gz");
    const { manifest } = await createBackup({ file: backupFile, dataDir: srcDir, databaseUrl: server.url });
    expect(manifest.database).toMatchObject({ kind: "pg_dump", major: Number(path.basename(path.dirname(bin!))) });
    expect(manifest.database.dump_version).toMatch(/^\d+\.\d+$/);
    expect(manifest.files.map((f) => f.name)).toContain("database/db.dump");

    const restoredFiles = (dir: string) => {
      for (const u of uploads) expect(fs.readFileSync(path.join(localUploadsDir(dir), ...u.key.split("/")))).toEqual(u.bytes);
      expect(fs.readFileSync(keysFile(dir))).toEqual(fs.readFileSync(keysFile(srcDir)));
    };

    // Into another database of the same server.
    await query(server.url, "CREATE DATABASE restored");
    const restored = urlOf("restored");
    const dirB = path.join(root, "b");
    await restoreBackup({ file: backupFile, dataDir: dirB, databaseUrl: restored });
    expect(await tableCounts(restored)).toEqual(counts);
    restoredFiles(dirB);

    // Over it: refused while it has tables, unless --force.
    await expect(restoreBackup({ file: backupFile, dataDir: path.join(root, "b2"), databaseUrl: restored })).rejects.toThrow(
      /The DATABASE_URL database has \d+ tables; .*--force/,
    );
    await query(restored, "DELETE FROM classifications WHERE id = (SELECT max(id) FROM classifications)");
    await restoreBackup({ file: backupFile, dataDir: dirB, databaseUrl: restored, force: true });
    expect(await tableCounts(restored)).toEqual(counts);
    restoredFiles(dirB);

    // Served from there.
    await useDatabase(restored, dirB);
    const u = uploads[0];
    expect((await api.get(`/subjects/${u.subjectId}`)).body.subjects[0].locations[0]).toEqual({ "image/png": u.url });
    expect(await file("GET", u.url)).toEqual({ status: 200, bytes: u.bytes });
    await closeDb();

    // Into an embedded DATA_DIR: off the server, onto the embedded database.
    const dirC = path.join(root, "c");
    await restoreBackup({ file: backupFile, dataDir: dirC });
    restoredFiles(dirC);
    const embedded = await startEmbeddedPostgres({ dataDir: dirC, durable: false });
    try {
      expect(await tableCounts(embedded.url)).toEqual(counts);
    } finally {
      await embedded.stop();
    }
  }, 120_000);

  it("refuses a backup of an embedded database (a cluster copy) into DATABASE_URL, leaving the database untouched", async () => {
    await query(server.url, "CREATE DATABASE empty_target");
    const archive = path.join(root, "cluster.tar");
    const w = new ArchiveWriter(archive, false);
    const manifest = {
      format: "quorum-backup",
      version: 1,
      database: { kind: "cluster", major: 18, last_migration: null },
      uploads: "local",
      files: [],
    };
    await w.addBuffer("manifest.json", Buffer.from(JSON.stringify(manifest)));
    await w.finish();
    const dir = path.join(root, `d-${crypto.randomBytes(3).toString("hex")}`);
    await expect(restoreBackup({ file: archive, dataDir: dir, databaseUrl: urlOf("empty_target") })).rejects.toThrow(
      /a copy of an embedded database .* without DATABASE_URL/,
    );
    expect(await tableCounts(urlOf("empty_target"))).toEqual({});
    // The DATA_DIR it made for the files is gone again.
    expect(fs.existsSync(dir)).toBe(false);
  });
});
