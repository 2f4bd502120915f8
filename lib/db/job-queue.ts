import { runMigrations } from "graphile-worker";
import { currentRequestId } from "@/lib/log/context";

// The durable job queue is graphile-worker (tables in the graphile_worker schema of our database). Jobs are
// added with SQL inside the transaction that creates their cause, so a job exists if and only if its cause
// was committed: nothing is lost when a process dies between the two.

export async function migrateJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: undefined });
}

export interface SqlClient {
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
}

export interface EnqueueOptions {
  /** Deduplicates: a second job with the same key replaces the pending one. */
  jobKey?: string;
  queueName?: string;
  maxAttempts?: number;
  runAt?: Date;
  /** The id of the request that caused the job; by default the request running now (lib/log/context.ts). */
  requestId?: string | null;
}

/**
 * Adds a job in the caller's transaction (a Prisma transaction client, or db()). The payload carries the
 * id of the request that caused it as `request_id` (the worker logs the job's lines with it).
 */
export async function enqueue(client: SqlClient, task: string, payload: unknown, opts: EnqueueOptions = {}): Promise<void> {
  const requestId = opts.requestId === undefined ? currentRequestId() : opts.requestId;
  if (requestId && payload && typeof payload === "object" && !Array.isArray(payload)) payload = { ...payload, request_id: requestId };
  await client.$executeRawUnsafe(
    `SELECT graphile_worker.add_job($1::text, $2::json, queue_name := $3::text, run_at := $4::timestamptz, max_attempts := $5::int, job_key := $6::text)`,
    task,
    JSON.stringify(payload ?? {}),
    opts.queueName ?? null,
    opts.runAt ?? null,
    opts.maxAttempts ?? 25,
    opts.jobKey ?? null,
  );
}
