import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { keysFile } from "@/lib/auth/keys";
import { embeddedUrl, runningEmbeddedServer, startEmbeddedPostgres } from "@/lib/db/embedded";
import { s3ConfigFromEnv } from "@/lib/storage/s3-storage";
import { localUploadsDir } from "@/lib/storage/storage";
import { ArchiveWriter } from "./archive";
import { copyCluster } from "./cluster";
import { CLUSTER, DUMP, FORMAT, FORMAT_VERSION, KEYS, MANIFEST, type Manifest, UPLOADS } from "./layout";
import { findPgTool, runPgTool, withClient } from "./pg-tools";

// npm run backup: one file with the database and the stored files. The database comes first, as one
// consistent snapshot (the embedded cluster's physical copy, or pg_dump's for DATABASE_URL); the files are
// copied after it. A stored file is never changed once written, so every file that existed when the database
// was copied is in the backup, as it was (unless deleted in between: a medium removed, a manifest imported,
// while the backup ran). A subject whose upload had not come yet names a file the backup lacks, as the
// live server's did.

export interface BackupOptions {
  /** The backup file to write: gzip-compressed unless its name ends in .tar. Never overwritten. */
  file: string;
  dataDir: string;
  /** Back up this database with pg_dump instead of the embedded one in dataDir. */
  databaseUrl?: string;
  log?: (line: string) => void;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Manifest;
}

/** The newest applied migration, or null before the first. */
export async function lastMigration(client: pg.Client): Promise<string | null> {
  const { rows } = await client.query(
    `SELECT CASE WHEN to_regclass('_prisma_migrations') IS NOT NULL THEN
       (SELECT max(migration_name) FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) END AS name`,
  );
  return rows[0].name;
}

async function backUpEmbedded(dataDir: string, archive: ArchiveWriter, log: (line: string) => void): Promise<Manifest["database"]> {
  const clusterDir = path.join(dataDir, "postgres");
  const running = runningEmbeddedServer(dataDir);
  let stop: (() => Promise<void>) | null = null;
  let url: string;
  if (running) {
    url = embeddedUrl(running.port);
    log(`backing up the running embedded database (pid ${running.pid}, port ${running.port})`);
  } else {
    if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) throw new Error(`There is no embedded database in ${clusterDir}`);
    log("the embedded database is not running: starting it for the backup");
    const db = await startEmbeddedPostgres({ dataDir });
    url = db.url;
    stop = db.stop;
  }
  try {
    const migration = await withClient(url, lastMigration);
    const copy = await copyCluster(url, clusterDir, archive, CLUSTER);
    return { kind: "cluster", server_version: copy.serverVersion, major: copy.major, last_migration: migration };
  } finally {
    await stop?.();
  }
}

async function backUpServer(url: string, archive: ArchiveWriter, log: (line: string) => void): Promise<Manifest["database"]> {
  const { version, major, migration } = await withClient(url, async (client) => {
    const { rows } = await client.query(
      "SELECT current_setting('server_version') AS version, current_setting('server_version_num')::int AS num",
    );
    return { version: rows[0].version as string, major: Math.floor(rows[0].num / 10000), migration: await lastMigration(client) };
  });
  const tool = findPgTool("pg_dump", major);
  log(`dumping the DATABASE_URL database (PostgreSQL ${version}) with pg_dump ${tool.version}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-dump-"));
  try {
    const dump = path.join(tmp, "db.dump");
    await runPgTool(tool, url, ["--format=custom", "--no-password", `--file=${dump}`]);
    await archive.addFile(DUMP, dump);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { kind: "pg_dump", server_version: version, major, dump_version: tool.version, last_migration: migration };
}

/** Adds the files under `dir` as `prefix/...`, leaving out uploads still being written (*.tmp). */
async function addTree(archive: ArchiveWriter, dir: string, prefix: string): Promise<void> {
  let entries: fs.Dirent[];
  try {
    entries = (await fs.promises.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  await archive.addDirectory(prefix);
  for (const entry of entries) {
    const source = path.join(dir, entry.name);
    if (entry.isDirectory()) await addTree(archive, source, `${prefix}/${entry.name}`);
    else if (entry.isFile() && !entry.name.endsWith(".tmp")) await archive.addFile(`${prefix}/${entry.name}`, source);
  }
}

export async function createBackup(opts: BackupOptions): Promise<BackupResult> {
  const log = opts.log ?? (() => {});
  const file = path.resolve(opts.file);
  const dataDir = path.resolve(opts.dataDir);
  if (fs.existsSync(file)) throw new Error(`${file} already exists; a backup never overwrites a file`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written beside its final name and renamed when complete: a file of that name is always a whole backup.
  const partial = `${file}.partial-${crypto.randomBytes(4).toString("hex")}`;
  const startedAt = new Date().toISOString();
  const archive = new ArchiveWriter(partial, !file.endsWith(".tar"));
  try {
    await archive.addDirectory("database");
    const database = opts.databaseUrl ? await backUpServer(opts.databaseUrl, archive, log) : await backUpEmbedded(dataDir, archive, log);
    await archive.addDirectory("files");
    const uploads = s3ConfigFromEnv() ? "s3" : "local";
    if (uploads === "local") await addTree(archive, localUploadsDir(dataDir), UPLOADS);
    else log("stored files are in the S3 bucket (S3_BUCKET): this backup holds the database and keys only");
    await archive.addFile(KEYS, keysFile(dataDir));
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      database,
      uploads,
      files: [...archive.files],
    };
    await archive.addBuffer(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await archive.finish();
    const fd = fs.openSync(partial, "r");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    // A hard link, not a rename: it fails rather than replace a file made under that name meanwhile.
    fs.linkSync(partial, file);
    fs.rmSync(partial);
    return { file, bytes: fs.statSync(file).size, manifest };
  } catch (err) {
    await archive.abort();
    fs.rmSync(partial, { force: true });
    throw err;
  }
}
