// npm run restore -- <file> [--force]: puts a backup written by npm run backup back (lib/backup/).
import "./require-node";
import { cliArgs } from "./cli-args";
import { restoreBackup } from "../lib/backup/restore";

const USAGE = `usage: npm run restore -- <file> [--force]

Restores a backup written by npm run backup. Every file in it is checked against its manifest first.

  without DATABASE_URL  into DATA_DIR (default .data), which must be empty: a new embedded database
                        from the backup, and its stored files and keys. Works for both kinds of backup
                        (an embedded database's, or a pg_dump of a server's).
  with DATABASE_URL     the database into that server with pg_restore (one transaction), which must
                        have no tables; the stored files and keys into DATA_DIR. Takes only backups
                        made with DATABASE_URL (pg_dump); PG_BIN as for backup.

  --force   replace what is there: DATA_DIR's postgres/, uploads/ and keys.json, or the DATABASE_URL
            database's objects of the same names (pg_restore --clean). Never while the embedded
            database runs on DATA_DIR.

Exit codes: 0 restored, 1 failed (nothing restored), 2 usage.`;

const args = cliArgs(USAGE, { force: { type: "boolean" } });
if (args.positionals.length !== 1) args.fail("Give the backup file to restore.");

try {
  const manifest = await restoreBackup({
    file: args.positionals[0],
    dataDir: process.env.DATA_DIR || ".data",
    databaseUrl: process.env.DATABASE_URL || undefined,
    force: !!args.values.force,
    log: (line) => console.log(`[restore] ${line}`),
  });
  console.log(
    `[restore] restored the backup of ${manifest.started_at} (last migration ${manifest.database.last_migration ?? "none"}); ` +
      "npm start applies any newer migrations",
  );
  process.exit(0);
} catch (err) {
  console.error(`[restore] failed: ${(err as Error).message}`);
  process.exit(1);
}
