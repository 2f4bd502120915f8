import { closeDb } from "@/lib/db";
import { migrateJobQueue } from "@/lib/db/job-queue";
import { applyMigrations } from "@/lib/db/migrations";

/**
 * Migrates the database at `url` as production does (the app's migrations and the job queue's), makes it
 * this process's database (and `dataDir` its DATA_DIR, when given) and writes the bootstrap records.
 */
export async function migrateAndUse(url: string, dataDir?: string): Promise<void> {
  await applyMigrations(url);
  await migrateJobQueue(url);
  await closeDb();
  process.env.DATABASE_URL = url;
  if (dataDir !== undefined) process.env.DATA_DIR = dataDir;
  const { ensureBootstrapRecords } = await import("@/lib/domain/ensure-bootstrap-records");
  await ensureBootstrapRecords();
}
