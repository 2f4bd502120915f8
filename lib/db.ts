import { PrismaPg } from "@prisma/adapter-pg";
import crypto from "node:crypto";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseUrl } from "@/lib/env";
import { logError } from "@/lib/log/throttled";

// One pg pool and one Prisma client per process. Prisma serves CRUD; the pool serves set-based SQL on
// hot paths. Kept on globalThis so dev-mode hot reloads do not open new pools.
const g = globalThis as unknown as { quorumPool?: pg.Pool; quorumPrisma?: PrismaClient };

export function pool(): pg.Pool {
  if (!g.quorumPool) {
    g.quorumPool = new pg.Pool({
      connectionString: databaseUrl(),
      max: Number(process.env.DB_POOL_SIZE ?? 10),
      // While the database is unreachable, requests fail fast (a 503) instead of queueing for a connection.
      connectionTimeoutMillis: Number(process.env.DB_CONNECT_TIMEOUT_MS ?? 3000),
      // Timestamps are UTC everywhere (columns are "timestamp without time zone" holding UTC).
      options: "-c TimeZone=UTC",
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process; the pool
    // discards it and opens a new one on demand.
    g.quorumPool.on("error", (err) => logError("db-idle", "[db] idle connection error:", err.message));
    g.quorumPool.on("connect", (client) => {
      // A connection dropped while checked out between two queries (inside a transaction) emits 'error'
      // on its client; without a listener that is an uncaught exception. The statement in progress fails
      // on its own (a 503 to the request), and the pool discards the client when it is released.
      client.on("error", (err) => logError("db-connection", "[db] connection error:", err.message));
      preparePlainQueries(client);
    });
  }
  return g.quorumPool;
}

/**
 * Our hand-written SQL is a fixed set of statements with parameters: run each as a named prepared
 * statement, so a connection parses and plans it once instead of on every call (hot paths run a handful
 * per request). Queries given as config objects (Prisma's) are left alone.
 */
function preparePlainQueries(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown, cb?: unknown) => {
    if (typeof text === "string" && Array.isArray(values) && values.length) {
      return query({ name: `q${crypto.createHash("sha1").update(text).digest("hex").slice(0, 16)}`, text, values }, cb);
    }
    return query(text, values, cb);
  };
}

export function db(): PrismaClient {
  g.quorumPrisma ??= new PrismaClient({ adapter: new PrismaPg(pool()) });
  return g.quorumPrisma;
}

export async function closeDb(): Promise<void> {
  await g.quorumPrisma?.$disconnect();
  await g.quorumPool?.end();
  g.quorumPrisma = undefined;
  g.quorumPool = undefined;
}
