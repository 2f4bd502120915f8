import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrations";
import { migrateJobQueue } from "../lib/db/job-queue";

/**
 * Makes DATABASE_URL usable: starts the embedded server when it is unset (data in DATA_DIR/postgres),
 * applies migrations and ensures bootstrap records. Returns a stop function for the embedded server.
 */
export async function prepareDatabase(log = console.log): Promise<() => Promise<void>> {
  let embedded: EmbeddedDatabase | undefined;
  if (!process.env.DATABASE_URL) {
    const dataDir = path.resolve(process.env.DATA_DIR ?? ".data");
    embedded = await startEmbeddedPostgres({ dataDir });
    process.env.DATABASE_URL = embedded.url;
    log(`embedded PostgreSQL running (data in ${path.join(dataDir, "postgres")})`);
  }
  const applied = await applyMigrations(process.env.DATABASE_URL!);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
  await migrateJobQueue(process.env.DATABASE_URL!);
  const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
  const { closeDb } = await import("../lib/db");
  await ensureBootstrapRecords();
  await closeDb();
  return async () => {
    await embedded?.stop();
  };
}

export async function withDatabase(fn: () => Promise<void>) {
  const stop = await prepareDatabase();
  try {
    await fn();
  } finally {
    await stop();
  }
}
