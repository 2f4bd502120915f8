import type { ArchivedFile } from "./archive";

// What a backup file holds. Restore takes these names and nothing else.
//   database/cluster/...   the embedded PostgreSQL cluster (a physical copy with its WAL and backup_label), or
//   database/db.dump       pg_dump's custom-format archive of the DATABASE_URL database
//   files/uploads/...      DATA_DIR/uploads (stored files: subject media, manifests, exports), when stored locally
//   files/keys.json        DATA_DIR/keys.json (the generated signing keys and session secret), when present
//   manifest.json          last: what the backup is, and every other file's size and SHA-256

export const FORMAT = "quorum-backup";
export const FORMAT_VERSION = 1;
export const CLUSTER = "database/cluster";
export const DUMP = "database/db.dump";
export const UPLOADS = "files/uploads";
export const KEYS = "files/keys.json";
export const MANIFEST = "manifest.json";

export interface Manifest {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  /** When the backup started: every record acknowledged before then is in it. */
  started_at: string;
  /** When it ended: records acknowledged between the two may be in it or not. */
  finished_at: string;
  database: {
    /** cluster: a copy of the embedded server's data directory; pg_dump: a logical dump of DATABASE_URL. */
    kind: "cluster" | "pg_dump";
    server_version: string;
    /** The cluster's major version (cluster backups restore only into the same major version). */
    major: number;
    /** The pg_dump that wrote database/db.dump, e.g. "15.18" (pg_dump backups). */
    dump_version?: string;
    /** The newest migration applied when the backup started. */
    last_migration: string | null;
  };
  /** Where the stored files were: "local" (in files/uploads) or "s3" (in the bucket, not in the backup). */
  uploads: "local" | "s3";
  files: ArchivedFile[];
}

/** Whether restore takes an archive member of this name. */
export function isBackupName(name: string): boolean {
  return (
    name === MANIFEST ||
    name === KEYS ||
    name === DUMP ||
    name === "database" ||
    name === "files" ||
    name === CLUSTER ||
    name.startsWith(`${CLUSTER}/`) ||
    name === UPLOADS ||
    name.startsWith(`${UPLOADS}/`)
  );
}
