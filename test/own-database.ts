import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeDb } from "@/lib/db";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrateAndUse } from "./migrate-and-use";

/**
 * Gives the calling test file (an isolated one: it changes DATABASE_URL for its process) a database of its
 * own for all its tests, migrated and with the bootstrap records. For files whose background jobs must run
 * in their own process: on the shared database another test file's drain may take such a job and run it
 * without this file's settings (an allowed host, a trusted certificate), or a worker this file starts may
 * take another file's jobs. `url()` is the database's URL once the file's tests run.
 */
export function ownDatabase(prefix: string): { url: () => string } {
  let database: EmbeddedDatabase | undefined;
  let dir = "";
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `quorum-${prefix}-`));
    database = await startEmbeddedPostgres({ dataDir: dir, persistent: false });
    await migrateAndUse(database.url);
  }, 120_000);
  afterAll(async () => {
    await closeDb();
    await database?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: () => {
      if (!database) throw new Error("the file's own database is not started yet");
      return database.url;
    },
  };
}
