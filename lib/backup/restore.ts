import fs from "node:fs";
import path from "node:path";
import { keysFile } from "@/lib/auth/keys";
import { initialiseEmbeddedCluster, runningEmbeddedServer, startEmbeddedPostgres } from "@/lib/db/embedded";
import { MIGRATIONS_DIR } from "@/lib/db/migrations";
import { localUploadsDir } from "@/lib/storage/storage";
import { extractArchive } from "./archive";
import { lastMigration } from "./backup";
import { CLUSTER, DUMP, FORMAT, FORMAT_VERSION, isBackupName, KEYS, MANIFEST, type Manifest, UPLOADS } from "./layout";
import { findPgTool, parseToolVersion, runPgTool, withClient } from "./pg-tools";

// npm run restore <file>: a backup back into an empty DATA_DIR (the embedded database: a new cluster made
// from the copy, its WAL replayed when it first starts here) or into the DATABASE_URL database (pg_restore).
// Everything is checked against the manifest before anything is put in place; a failed restore leaves
// nothing of itself behind. --force replaces what is there (the database's tables, DATA_DIR's postgres/,
// uploads/ and keys.json), but never under a running embedded server.

export interface RestoreOptions {
  file: string;
  dataDir: string;
  /** Restore the database into this server with pg_restore instead of an embedded cluster in dataDir. */
  databaseUrl?: string;
  force?: boolean;
  log?: (line: string) => void;
}

/** Checks the extracted files against the manifest: the same names, sizes and SHA-256 sums, nothing more. */
function readManifest(staging: string, extracted: Map<string, { size: number; sha256: string }>): Manifest {
  const text = extracted.has(MANIFEST) ? fs.readFileSync(path.join(staging, MANIFEST), "utf8") : null;
  if (text === null) throw new Error("The file is not a Quorum backup, or is incomplete: it has no manifest.json");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw new Error("The backup's manifest.json is not JSON");
  }
  if (manifest?.format !== FORMAT || !Array.isArray(manifest.files)) throw new Error("The file is not a Quorum backup");
  if (manifest.version !== FORMAT_VERSION)
    throw new Error(`The backup's format version is ${manifest.version}; this Quorum reads version ${FORMAT_VERSION}`);
  const listed = new Set<string>();
  for (const f of manifest.files) {
    const got = extracted.get(f.name);
    if (!got) throw new Error(`The backup is incomplete: ${f.name} is missing`);
    if (got.size !== f.size || got.sha256 !== f.sha256) throw new Error(`The backup is damaged: ${f.name} does not match its checksum`);
    listed.add(f.name);
  }
  for (const name of extracted.keys())
    if (name !== MANIFEST && !listed.has(name)) throw new Error(`The backup holds ${name}, which its manifest does not list`);
  return manifest;
}

/** Hands a tree to the user the embedded server runs as (it owns `owner`), when we are root. */
function chownTree(target: string, owner: fs.Stats) {
  if (process.getuid?.() !== 0) return;
  fs.lchownSync(target, owner.uid, owner.gid);
  if (fs.lstatSync(target).isDirectory()) for (const name of fs.readdirSync(target)) chownTree(path.join(target, name), owner);
}

/** Replaces the new cluster initdb made in dataDir/postgres with the backup's copy; its first start replays the WAL. */
async function restoreCluster(manifest: Manifest, staging: string, dataDir: string, log: (line: string) => void) {
  const clusterDir = path.join(dataDir, "postgres");
  await initialiseEmbeddedCluster(dataDir);
  const major = Number(fs.readFileSync(path.join(clusterDir, "PG_VERSION"), "utf8").trim());
  if (major !== manifest.database.major)
    throw new Error(
      `The backup holds a PostgreSQL ${manifest.database.major} cluster; this Quorum's embedded PostgreSQL is ${major}. ` +
        "Restore it with the Quorum version that made it",
    );
  const owner = fs.statSync(clusterDir);
  for (const name of fs.readdirSync(clusterDir)) fs.rmSync(path.join(clusterDir, name), { recursive: true, force: true });
  const copy = path.join(staging, ...CLUSTER.split("/"));
  for (const name of fs.readdirSync(copy)) fs.renameSync(path.join(copy, name), path.join(clusterDir, name));
  chownTree(clusterDir, owner);
  fs.chmodSync(clusterDir, 0o700);
  log("starting the restored database (it replays the WAL copied with the backup)");
  const lines: string[] = [];
  const db = await startEmbeddedPostgres({ dataDir, log: (line) => void lines.push(...line.trim().split("\n")) }).catch((err) => {
    throw new Error(`The restored database did not start${err?.message ? ` (${err.message})` : ""}:\n${lines.slice(-15).join("\n")}`);
  });
  try {
    return await withClient(db.url, lastMigration);
  } finally {
    await db.stop();
  }
}

async function pgRestore(manifest: Manifest, dump: string, url: string, clean: boolean, log: (line: string) => void) {
  const serverMajor = await withClient(url, async (c) =>
    Math.floor((await c.query("SHOW server_version_num")).rows[0].server_version_num / 10000),
  );
  const dumpMajor = parseToolVersion(`(PostgreSQL) ${manifest.database.dump_version ?? ""}`)?.major ?? serverMajor;
  const tool = findPgTool("pg_restore", serverMajor, dumpMajor);
  log(`restoring the database with pg_restore ${tool.version}`);
  await runPgTool(tool, url, [
    "--no-password",
    "--no-owner",
    "--no-acl",
    "--exit-on-error",
    "--single-transaction",
    ...(clean ? ["--clean", "--if-exists"] : []),
    dump,
  ]);
  return withClient(url, lastMigration);
}

async function userTables(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'`,
    );
    return rows[0].n as number;
  });
}

export async function restoreBackup(opts: RestoreOptions): Promise<Manifest> {
  const log = opts.log ?? (() => {});
  const file = path.resolve(opts.file);
  const dataDir = path.resolve(opts.dataDir);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Error(`There is no backup file ${file}`);

  // What the restore will put in place, and so what --force replaces.
  const targets = [localUploadsDir(dataDir), keysFile(dataDir), ...(opts.databaseUrl ? [] : [path.join(dataDir, "postgres")])];
  if (!opts.databaseUrl) {
    const running = runningEmbeddedServer(dataDir);
    if (running) throw new Error(`An embedded database server (pid ${running.pid}) is running on ${dataDir}: stop it first`);
    const present = fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [];
    if (present.length && !opts.force)
      throw new Error(
        `${dataDir} is not empty (${present.slice(0, 5).join(", ")}); restore into an empty DATA_DIR, or pass --force to replace it`,
      );
  } else {
    const tables = await userTables(opts.databaseUrl);
    if (tables && !opts.force)
      throw new Error(`The DATABASE_URL database has ${tables} tables; restore into an empty database, or pass --force`);
    const present = targets.filter((t) => fs.existsSync(t));
    if (present.length && !opts.force) throw new Error(`${present.join(" and ")} already exist; pass --force to replace them`);
  }

  const made = !fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(dataDir, ".restore-"));
  // What this restore has put in place, removed again if it fails (what --force replaced is gone by then).
  const created: string[] = [];
  try {
    log(`reading ${file}`);
    const manifest = readManifest(staging, await extractArchive(file, staging, isBackupName));
    const { database } = manifest;
    if (database.kind === "cluster" && opts.databaseUrl)
      throw new Error(
        "This backup is a copy of an embedded database (a whole PostgreSQL cluster): restore it into a DATA_DIR without DATABASE_URL",
      );
    const dump = path.join(staging, ...DUMP.split("/"));
    if (database.kind === "pg_dump" && !fs.existsSync(dump)) throw new Error("The backup has no database dump");
    if (database.last_migration && !fs.readdirSync(MIGRATIONS_DIR).includes(database.last_migration))
      log(
        `warning: the backup's database has migration ${database.last_migration}, which this Quorum does not know: it comes from a newer version`,
      );

    let restored: string | null;
    if (opts.databaseUrl) {
      // One transaction: a failure leaves the database as it was.
      restored = await pgRestore(manifest, dump, opts.databaseUrl, !!opts.force, log);
    } else {
      const clusterDir = path.join(dataDir, "postgres");
      fs.rmSync(clusterDir, { recursive: true, force: true });
      created.push(clusterDir);
      if (database.kind === "cluster") restored = await restoreCluster(manifest, staging, dataDir, log);
      else {
        const db = await startEmbeddedPostgres({ dataDir });
        try {
          restored = await pgRestore(manifest, dump, db.url, false, log);
        } finally {
          await db.stop();
        }
      }
    }
    if (restored !== database.last_migration)
      throw new Error(`The restored database's last migration is ${restored}, the backup's ${database.last_migration}`);

    const files: [string, string][] = [
      [path.join(staging, ...UPLOADS.split("/")), localUploadsDir(dataDir)],
      [path.join(staging, ...KEYS.split("/")), keysFile(dataDir)],
    ];
    for (const [from, to] of files) {
      if (!fs.existsSync(from)) continue;
      fs.rmSync(to, { recursive: true, force: true });
      created.push(to);
      fs.renameSync(from, to);
    }
    if (manifest.uploads === "s3") log("the stored files were in the S3 bucket: this backup does not hold them");
    return manifest;
  } catch (err) {
    for (const t of created) fs.rmSync(t, { recursive: true, force: true });
    fs.rmSync(staging, { recursive: true, force: true });
    if (made) fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
