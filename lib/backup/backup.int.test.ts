import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysFile } from "@/lib/auth/keys";
import { closeDb } from "@/lib/db";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "@/lib/db/embedded";
import { migrateJobQueue } from "@/lib/db/job-queue";
import { applyMigrations } from "@/lib/db/migrations";
import { localUploadsDir } from "@/lib/storage/storage";
import { drainPipeline, engine } from "@/test/engine";
import { classifiableProject, classificationBody } from "@/test/factories";
import { api } from "@/test/http";
import { file, query, tableCounts, type Upload, uploadSubject, useDatabase } from "@/test/backups";
import { ArchiveWriter } from "./archive";
import { createBackup } from "./backup";
import { restoreBackup } from "./restore";

// The round trip of npm run backup / npm run restore for the embedded database: a backup taken while the
// server runs and volunteers classify, subjects are uploaded and the engine extracts and reduces, restored
// into another DATA_DIR, holds every record and file acknowledged before the backup started, and the
// restored server serves them. Then the same with the server stopped (every record), and the refusals.

const ENV = ["DATABASE_URL", "DATA_DIR"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
const root = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-backup-test-"));
// The embedded server runs as its own user when we are root: it must be able to reach the DATA_DIRs.
fs.chmodSync(root, 0o755);
const srcDir = path.join(root, "source");
const firstRestore = path.join(root, "restored");
let src: EmbeddedDatabase | null = null;
const started: EmbeddedDatabase[] = [];

async function serve(dataDir: string): Promise<EmbeddedDatabase> {
  const db = await startEmbeddedPostgres({ dataDir, durable: false });
  started.push(db);
  return db;
}

beforeAll(async () => {
  src = await startEmbeddedPostgres({ dataDir: srcDir, durable: false });
  await applyMigrations(src.url);
  await migrateJobQueue(src.url);
  await useDatabase(src.url, srcDir);
  const { ensureBootstrapRecords } = await import("@/lib/domain/ensure-bootstrap-records");
  await ensureBootstrapRecords();
}, 120_000);

afterAll(async () => {
  await closeDb();
  for (const db of [...started, ...(src ? [src] : [])]) await db.stop().catch(() => {});
  for (const k of ENV) process.env[k] = saved[k];
  fs.rmSync(root, { recursive: true, force: true });
});

describe("backup and restore of the embedded database", () => {
  let tarBackup = "";

  it("a backup taken while creates run restores every acknowledged record and file, and the restored server serves them", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(4);
    const engineConfig = {
      id: workflow.id,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "consensus" }, n: { type: "count", reduction_mode: "running_reduction" } },
    };
    expect((await engine.post("/workflows", { workflow: engineConfig }, owner.token)).status).toBe(201);

    const classifications: number[] = [];
    const uploads: Upload[] = [];
    const classify = async (i: number) => {
      const res = await api.post("/classifications", classificationBody(workflow, [subjects[i % subjects.length].id]), {
        token: owner.token,
      });
      expect(res.status).toBe(201);
      classifications.push(Number(res.body.classifications[0].id));
    };
    const upload = async () => void uploads.push(await uploadSubject(project.id, owner.token));

    for (let i = 0; i < 12; i++) await classify(i);
    for (let i = 0; i < 3; i++) await upload();
    await drainPipeline();

    // Volunteers keep classifying, uploading and the engine keeps running while the backup is taken.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await classify(i);
        if (i % 5 === 0) await upload();
        if (i % 10 === 0) await drainPipeline(2);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const acknowledged = { classifications: [...classifications], uploads: [...uploads] };
    const extracts = await query<{ id: string }>(src!.url, "SELECT id::text FROM extracts");
    const reductions = await query<{ id: string }>(src!.url, "SELECT id::text FROM subject_reductions");
    const engineWorkflow = await query(src!.url, "SELECT * FROM engine_workflows WHERE id = $1", [workflow.id]);
    expect(extracts.length).toBeGreaterThanOrEqual(12);
    expect(reductions.length).toBeGreaterThan(0);

    const backupFile = path.join(root, "live.tar.gz");
    const t0 = Date.now();
    const result = await createBackup({ file: backupFile, dataDir: srcDir });
    const backupMs = Date.now() - t0;
    const duringBackup = classifications.length - acknowledged.classifications.length;
    writing = false;
    await writer;
    expect(duringBackup, "classifications acknowledged while the backup ran").toBeGreaterThan(0);
    expect(result.manifest.database).toMatchObject({ kind: "cluster", major: 18 });
    expect(result.manifest.uploads).toBe("local");
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(root).filter((f) => f.includes(".partial-"))).toEqual([]);

    const dstDir = firstRestore;
    const t1 = Date.now();
    await restoreBackup({ file: backupFile, dataDir: dstDir });
    const restoreMs = Date.now() - t1;
    console.log(`backup of a running server: ${backupMs} ms, ${result.bytes} bytes; restore: ${restoreMs} ms`);
    expect(fs.readdirSync(dstDir).sort()).toEqual(["keys.json", "postgres", "uploads"]);
    expect(fs.readFileSync(keysFile(dstDir))).toEqual(fs.readFileSync(keysFile(srcDir)));

    const dst = await serve(dstDir);
    const have = async (table: string, ids: (string | number)[]) =>
      Number((await query<{ n: string }>(dst.url, `SELECT count(*) AS n FROM ${table} WHERE id = ANY($1::bigint[])`, [ids]))[0].n);
    expect(await have("classifications", acknowledged.classifications)).toBe(acknowledged.classifications.length);
    expect(
      await have(
        "extracts",
        extracts.map((e) => e.id),
      ),
    ).toBe(extracts.length);
    expect(
      await have(
        "subject_reductions",
        reductions.map((r) => r.id),
      ),
    ).toBe(reductions.length);
    expect(await query(dst.url, "SELECT * FROM engine_workflows WHERE id = $1", [workflow.id])).toEqual(engineWorkflow);
    for (const u of acknowledged.uploads) expect(fs.readFileSync(path.join(localUploadsDir(dstDir), ...u.key.split("/")))).toEqual(u.bytes);

    // The restored server serves them, and carries on from where the backup ended (no id is issued twice).
    await useDatabase(dst.url, dstDir);
    const u = acknowledged.uploads[0];
    expect((await api.get(`/subjects/${u.subjectId}`)).body.subjects[0].locations[0]).toEqual({ "image/png": u.url });
    expect(await file("GET", u.url)).toEqual({ status: 200, bytes: u.bytes });
    const last = Math.max(...(await query<{ id: string }>(dst.url, "SELECT id::text FROM classifications")).map((r) => Number(r.id)));
    const res = await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: owner.token });
    expect(res.status).toBe(201);
    expect(Number(res.body.classifications[0].id)).toBeGreaterThan(last);
  }, 120_000);

  it("a backup of the stopped server (started for the copy) holds every record; restore --force puts it in place of another", async () => {
    await useDatabase(src!.url, srcDir);
    await drainPipeline();
    await closeDb();
    const before = await tableCounts(src!.url);
    expect(before["public.classifications"]).toBeGreaterThan(12);
    await src!.stop();
    src = null;
    tarBackup = path.join(root, "stopped.tar");
    const result = await createBackup({ file: tarBackup, dataDir: srcDir });
    expect(result.manifest.database.kind).toBe("cluster");
    // Uncompressed: a plain tar any tar reads.
    expect(fs.readFileSync(tarBackup).subarray(257, 262).toString()).toBe("ustar");
    expect(fs.existsSync(path.join(srcDir, "postgres", "postmaster.pid"))).toBe(false);

    // Over the first restore's DATA_DIR: never while its server runs.
    await expect(restoreBackup({ file: tarBackup, dataDir: firstRestore, force: true })).rejects.toThrow(/is running on .*: stop it first/);
    for (const db of started.splice(0)) await db.stop();
    await expect(restoreBackup({ file: tarBackup, dataDir: firstRestore })).rejects.toThrow(/is not empty \(.*\).*--force/);
    fs.writeFileSync(keysFile(firstRestore), "{}");
    await restoreBackup({ file: tarBackup, dataDir: firstRestore, force: true });
    expect(fs.readFileSync(keysFile(firstRestore))).toEqual(fs.readFileSync(keysFile(srcDir)));
    const dst = await serve(firstRestore);
    expect(await tableCounts(dst.url)).toEqual(before);
  }, 120_000);

  /** A backup file with these members (names → contents) and a manifest listing `listed` (default: the same). */
  async function crafted(members: Record<string, string>, opts: { listed?: Record<string, string>; manifest?: boolean } = {}) {
    const out = path.join(root, `crafted-${crypto.randomBytes(4).toString("hex")}.tar`);
    const w = new ArchiveWriter(out, false);
    for (const [name, text] of Object.entries(members)) await w.addBuffer(name, Buffer.from(text));
    const files = Object.entries(opts.listed ?? members).map(([name, text]) => ({
      name,
      size: Buffer.byteLength(text),
      sha256: crypto.createHash("sha256").update(text).digest("hex"),
    }));
    const manifest = { format: "quorum-backup", version: 1, database: { kind: "cluster", major: 18 }, uploads: "local", files };
    if (opts.manifest !== false) await w.addBuffer("manifest.json", Buffer.from(JSON.stringify(manifest)));
    await w.finish();
    return out;
  }

  const refusals: { name: string; archive: () => Promise<string>; setup?: (dir: string) => void; error: RegExp }[] = [
    {
      name: "a DATA_DIR that is not empty",
      archive: async () => tarBackup,
      setup: (dir) => fs.writeFileSync(path.join(dir, "keys.json"), "{}"),
      error: /is not empty \(keys\.json\).*--force/,
    },
    {
      name: "a file whose bytes changed",
      archive: () => crafted({ "files/keys.json": "{changed}" }, { listed: { "files/keys.json": "{original}" } }),
      error: /damaged: files\/keys\.json does not match its checksum/,
    },
    {
      name: "a file missing",
      archive: () => crafted({}, { listed: { "files/uploads/subjects/1/a.png": "png" } }),
      error: /incomplete: files\/uploads\/subjects\/1\/a\.png is missing/,
    },
    {
      name: "a file its manifest does not list",
      archive: () => crafted({ "files/keys.json": "{}" }, { listed: {} }),
      error: /holds files\/keys\.json, which its manifest does not list/,
    },
    {
      name: "a truncated file",
      archive: async () => {
        const out = path.join(root, "truncated.tar");
        fs.writeFileSync(out, fs.readFileSync(tarBackup).subarray(0, 3 * 1024 * 1024 + 100));
        return out;
      },
      error: /The archive is damaged/,
    },
    {
      name: "an entry outside DATA_DIR",
      archive: () => crafted({ "../escaped": "x" }),
      error: /an entry a backup does not have: "\.\.\/escaped"/,
    },
    {
      name: "an entry outside the layout",
      archive: () => crafted({ "etc/passwd": "x" }),
      error: /an entry a backup does not have: "etc\/passwd"/,
    },
    {
      name: "no manifest",
      archive: () => crafted({ "files/keys.json": "{}" }, { manifest: false }),
      error: /not a Quorum backup, or is incomplete/,
    },
    { name: "a missing backup file", archive: async () => path.join(root, "nothing.tar"), error: /There is no backup file/ },
  ];

  it.each(refusals)("restore refuses $name and leaves DATA_DIR as it was", async (c) => {
    const dir = fs.mkdtempSync(path.join(root, "refused-"));
    c.setup?.(dir);
    const before = fs.readdirSync(dir).sort();
    await expect(restoreBackup({ file: await c.archive(), dataDir: dir })).rejects.toThrow(c.error);
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  });

  it("backup never overwrites a file", async () => {
    await expect(createBackup({ file: tarBackup, dataDir: srcDir })).rejects.toThrow(/already exists/);
  });

  const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
  const run = (script: string, args: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [tsx, `scripts/${script}.ts`, ...args], {
        env: { ...process.env, DATA_DIR: path.join(root, "cli"), DATABASE_URL: "" },
      });
      let output = "";
      child.stdout.on("data", (c) => (output += c));
      child.stderr.on("data", (c) => (output += c));
      child.on("close", (code) => resolve({ code, output }));
    });

  it("the commands answer usage and failures with their exit codes", async () => {
    const cases = [
      { script: "backup", args: ["--help"], code: 0, output: /usage: npm run backup/ },
      { script: "backup", args: ["a.tar", "b.tar"], code: 2, output: /Give one backup file/ },
      { script: "restore", args: [], code: 2, output: /Give the backup file to restore/ },
      { script: "restore", args: ["--frce", "x.tar"], code: 2, output: /Unknown option '--frce'/ },
      { script: "restore", args: [path.join(root, "none.tar")], code: 1, output: /\[restore\] failed: There is no backup file/ },
    ];
    const results = await Promise.all(cases.map((c) => run(c.script, c.args)));
    cases.forEach((c, i) => {
      expect(results[i].output, `${c.script} ${c.args.join(" ")}`).toMatch(c.output);
      expect(results[i].code, `${c.script} ${c.args.join(" ")}`).toBe(c.code);
    });
  }, 60_000);
});
