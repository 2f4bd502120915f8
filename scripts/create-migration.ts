// npm run db:migration:create -- <name>: writes prisma/migrations/<stamp>_<name>/migration.sql for the
// difference between the committed migrations and prisma/schema.prisma.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { createMigration } from "../lib/db/migrations";

const name = process.argv[2];
if (!name) {
  console.error("usage: npm run db:migration:create -- <name>");
  process.exit(2);
}
let url = process.env.DATABASE_URL;
let stop = async () => {};
if (!url) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-migrate-"));
  const db = await startEmbeddedPostgres({ dataDir: dir, persistent: false });
  url = db.url;
  stop = async () => {
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
try {
  const dir = await createMigration(url, name);
  console.log(dir ? `created ${path.relative(process.cwd(), dir)}` : "schema matches the migrations: nothing to create");
} finally {
  await stop();
}
