import pg from "pg";
import { closeDb, pool } from "@/lib/db";
import { migrateJobQueue } from "@/lib/db/job-queue";
import { applyMigrations } from "@/lib/db/migrations";

// "Changed nothing", checked against a database of the test file's own (the other files writing beside it
// cannot blur it): a digest of every table's rows, compared before and after. The file must be in
// vitest.config.ts's ISOLATED list, as it points DATABASE_URL at its database.

/** Creates a database beside the run's one, migrated like production with the bootstrap records, and makes it the app's. */
export async function usePrivateDatabase(prefix: string): Promise<void> {
  const url = new URL(process.env.DATABASE_URL!);
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  url.pathname = `/${name}`;
  await closeDb();
  await applyMigrations(url.toString());
  await migrateJobQueue(url.toString());
  process.env.DATABASE_URL = url.toString();
  const { ensureBootstrapRecords } = await import("@/lib/domain/ensure-bootstrap-records");
  await ensureBootstrapRecords();
}

let contentQuery: string | null = null;

/** A digest of every table's rows (order-free) by table, and the job queue's size; abuse-limit counters left out. */
export async function tableDigests(): Promise<Map<string, string>> {
  if (!contentQuery) {
    const tables = (
      await pool().query<{ t: string }>(
        `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS t FROM information_schema.tables
         WHERE table_type = 'BASE TABLE' AND table_schema = 'public' AND table_name NOT IN ('rate_limits', '_prisma_migrations') ORDER BY 1`,
      )
    ).rows.map((r) => r.t);
    contentQuery = [
      ...tables.map((t) => `SELECT '${t}' AS t, md5(coalesce(string_agg(md5(x::text), '' ORDER BY md5(x::text)), '')) AS d FROM ${t} x`),
      `SELECT 'jobs', count(*)::text FROM graphile_worker.jobs`,
    ].join(" UNION ALL ");
  }
  return new Map((await pool().query<{ t: string; d: string }>(contentQuery)).rows.map((r) => [r.t, r.d]));
}

/** The tables whose digest differs. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([t, d]) => before.get(t) !== d).map(([t]) => t);
}
