import type pg from "pg";
import { pool } from "@/lib/db";

// Plain SQL on the pg pool for hot paths (classification create, queue, counters), where Prisma's
// per-query overhead matters.

export type Sql = Pick<pg.PoolClient, "query">;

/** Runs fn in a transaction on one pooled connection; rolls back on any error. */
export async function withTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Adapts a pg client to the `$executeRawUnsafe` shape lib/db/job-queue.ts enqueues with. */
export function rawExecutor(client: Sql) {
  return {
    $executeRawUnsafe: async (sql: string, ...values: unknown[]) => (await client.query(sql, values)).rowCount ?? 0,
  };
}

/** Adapts a Prisma transaction client to `Sql`, so domain SQL also runs inside generic-layer transactions. */
export function prismaSql(tx: { $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T> }): Sql {
  return {
    query: (async (sql: string, values?: unknown[]) => {
      const rows = await tx.$queryRawUnsafe<unknown[]>(sql, ...(values ?? []));
      return { rows, rowCount: rows.length };
    }) as Sql["query"],
  };
}
