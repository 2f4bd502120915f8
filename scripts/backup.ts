// npm run backup [-- <file>]: writes one backup file with the database (the embedded one in DATA_DIR, running
// or not, or DATABASE_URL's through pg_dump) and the stored files and keys of DATA_DIR (lib/backup/).
import "./require-node";
import path from "node:path";
import { cliArgs } from "./cli-args";
import { createBackup } from "../lib/backup/backup";

const USAGE = `usage: npm run backup [-- <file>]

Writes a consistent backup of Quorum's database and stored files to <file> (default
quorum-backup-<UTC time>.tar.gz in the current directory): a tar archive, gzip-compressed unless
the name ends in .tar, created with mode 0600 (it holds the signing keys). An existing file is never
overwritten.

  without DATABASE_URL  the embedded database in DATA_DIR/postgres (default .data), copied while it
                        runs (or started for the copy when it is stopped)
  with DATABASE_URL     that database, with pg_dump (custom format) of the server's version; set
                        PG_BIN to the directory of the client tools if they are not on PATH
  always                DATA_DIR/uploads (unless S3_BUCKET is set: then the files stay in the bucket)
                        and DATA_DIR/keys.json

Restore with: npm run restore -- <file>
Exit codes: 0 written, 1 failed (nothing written), 2 usage.`;

const args = cliArgs(USAGE, {});
if (args.positionals.length > 1) args.fail("Give one backup file.");

const stamp = new Date()
  .toISOString()
  .replace(/[-:]/g, "")
  .replace(/\.\d+Z$/, "Z");
const file = args.positionals[0] ?? `quorum-backup-${stamp}.tar.gz`;
try {
  const { bytes, manifest } = await createBackup({
    file,
    dataDir: process.env.DATA_DIR || ".data",
    databaseUrl: process.env.DATABASE_URL || undefined,
    log: (line) => console.log(`[backup] ${line}`),
  });
  const uploads = manifest.files.filter((f) => f.name.startsWith("files/uploads/") && !f.name.endsWith(".meta.json")).length;
  console.log(
    `[backup] wrote ${path.resolve(file)} (${(bytes / 1024 / 1024).toFixed(1)} MiB): PostgreSQL ${manifest.database.server_version} ` +
      `(${manifest.database.kind === "cluster" ? "embedded cluster" : "pg_dump"}, last migration ${manifest.database.last_migration ?? "none"}), ` +
      (manifest.uploads === "s3" ? "stored files in S3 (not included)" : `${uploads} stored files`),
  );
  process.exit(0);
} catch (err) {
  console.error(`[backup] failed: ${(err as Error).message}`);
  process.exit(1);
}
