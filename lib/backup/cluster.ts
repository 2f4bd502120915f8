import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { ArchiveWriter } from "./archive";

// A consistent copy of the embedded PostgreSQL cluster while it runs, with the server's own backup API (no
// client tools: the embedded package ships only the server). Between pg_backup_start and pg_backup_stop
// the data directory's files are copied as they are; the WAL written meanwhile, copied after, makes them
// consistent when the restored server replays it (backup_label tells it where to start). A temporary
// replication slot, made before the backup starts, keeps the server from recycling that WAL during the
// copy. The restored database is the cluster as of the end of its WAL copy.

/** Directories whose contents a backup leaves out (the server remakes them); the directories themselves stay. */
const SKIP_CONTENTS = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);
/** Files a backup leaves out: a running server's, and ones the backup writes itself. */
const SKIP_FILES = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "backup_label",
  "backup_label.old",
  "tablespace_map",
  "backup_manifest",
  "postgresql.auto.conf.tmp",
  "current_logfiles.tmp",
  "pg_internal.init",
]);
const WAL_SEGMENT = /^[0-9A-F]{24}$/;
const CONTROL_FILE = "global/pg_control";

export interface ClusterCopy {
  /** The server's version (server_version). */
  serverVersion: string;
  /** The major version of the cluster's files (PG_VERSION). */
  major: number;
}

export async function copyCluster(url: string, clusterDir: string, archive: ArchiveWriter, prefix: string): Promise<ClusterCopy> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT current_setting('data_directory') AS dir, current_setting('server_version') AS version,
              (SELECT count(*)::int FROM pg_tablespace WHERE spcname NOT IN ('pg_default', 'pg_global')) AS tablespaces`,
    );
    const info = rows[0] as { dir: string; version: string; tablespaces: number };
    if (fs.realpathSync(info.dir) !== fs.realpathSync(clusterDir))
      throw new Error(`The server on this port serves ${info.dir}, not ${clusterDir}`);
    if (info.tablespaces > 0) throw new Error("The cluster has tablespaces of its own; this backup copies only the data directory");
    const major = Number(fs.readFileSync(path.join(clusterDir, "PG_VERSION"), "utf8").trim());

    const slot = `quorum_backup_${crypto.randomBytes(6).toString("hex")}`;
    await client.query("SELECT pg_create_physical_replication_slot($1, true, true)", [slot]);
    await client.query("SELECT pg_backup_start($1, true)", [`quorum backup ${new Date().toISOString()}`]);
    let stopped = false;
    try {
      await copyTree(clusterDir, "", archive, prefix);
      await archive.addFile(`${prefix}/${CONTROL_FILE}`, path.join(clusterDir, CONTROL_FILE));
      const stop = await client.query("SELECT labelfile, spcmapfile, pg_walfile_name(lsn) AS last_wal FROM pg_backup_stop(false)");
      stopped = true;
      const { labelfile, spcmapfile, last_wal } = stop.rows[0] as { labelfile: string; spcmapfile: string; last_wal: string };
      await archive.addBuffer(`${prefix}/backup_label`, Buffer.from(labelfile));
      if (spcmapfile) await archive.addBuffer(`${prefix}/tablespace_map`, Buffer.from(spcmapfile));
      const first = /^START WAL LOCATION: .* \(file ([0-9A-F]{24})\)$/m.exec(labelfile)?.[1];
      if (!first) throw new Error("pg_backup_stop answered a backup label without its start WAL file");
      await copyWal(path.join(clusterDir, "pg_wal"), first, last_wal, archive, `${prefix}/pg_wal`);
    } finally {
      if (!stopped) await client.query("SELECT pg_backup_stop(false)").catch(() => {});
    }
    // The temporary slot goes with the session.
    return { serverVersion: info.version, major };
  } finally {
    await client.end();
  }
}

async function readdir(dir: string): Promise<fs.Dirent[]> {
  try {
    return (await fs.promises.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  } catch (err) {
    // Removed while the copy ran (a dropped database's directory): the WAL replay removes it too.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

async function copyTree(root: string, rel: string, archive: ArchiveWriter, prefix: string): Promise<void> {
  for (const entry of await readdir(path.join(root, rel))) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    const source = path.join(root, name);
    if (entry.name.startsWith("pgsql_tmp") || SKIP_FILES.has(entry.name) || name === CONTROL_FILE) continue;
    // pg_wal may be a link to a directory elsewhere (initdb --waldir); anything else linked is a tablespace.
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && name === "pg_wal" && fs.statSync(source).isDirectory());
    if (isDir) {
      await archive.addDirectory(`${prefix}/${name}`);
      if (SKIP_CONTENTS.has(name)) {
        // pg_wal's own subdirectories (archive_status, summaries) are part of a cluster's layout.
        if (name === "pg_wal")
          for (const sub of await readdir(source)) if (sub.isDirectory()) await archive.addDirectory(`${prefix}/${name}/${sub.name}`);
        continue;
      }
      await copyTree(root, name, archive, prefix);
    } else if (entry.isFile()) {
      await archive.addFile(`${prefix}/${name}`, source);
    } else {
      throw new Error(`The data directory holds ${name}, neither a file nor a directory; this backup does not copy it`);
    }
  }
}

/** The WAL segments from the backup's start to its end (names order them within a timeline), and timeline histories. */
async function copyWal(walDir: string, first: string, last: string, archive: ArchiveWriter, prefix: string): Promise<void> {
  for (const entry of await readdir(walDir)) {
    if (!entry.isFile()) continue;
    const segment = WAL_SEGMENT.test(entry.name) && entry.name >= first && entry.name <= last;
    if (!segment && !entry.name.endsWith(".history")) continue;
    if (!(await archive.addFile(`${prefix}/${entry.name}`, path.join(walDir, entry.name))) && segment)
      throw new Error(`WAL segment ${entry.name} went missing during the backup`);
  }
}
