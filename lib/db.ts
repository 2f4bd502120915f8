import { PrismaPg } from "@prisma/adapter-pg";
import crypto from "node:crypto";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseUrl } from "@/lib/env";
import { logError } from "@/lib/log/throttled";
import { processPoolSize } from "@/lib/db/pool-size";

// One pg pool and one Prisma client per process. Prisma serves CRUD; the pool serves set-based SQL on
// hot paths. Kept on globalThis so dev-mode hot reloads do not open new pools.
const g = globalThis as unknown as { quorumPool?: pg.Pool; quorumPrisma?: PrismaClient };

export function pool(): pg.Pool {
  if (!g.quorumPool) {
    g.quorumPool = new pg.Pool({
      connectionString: databaseUrl(),
      max: processPoolSize(),
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
      prepareStatements(client);
    });
  }
  return g.quorumPool;
}

/** Most of Prisma's statements kept prepared on one connection (DB_PREPARED_STATEMENTS, default 200): the least recently used is deallocated. */
const preparedLimit = () => Math.max(1, Number(process.env.DB_PREPARED_STATEMENTS ?? 200));

const statementName = (prefix: string, text: string) => `${prefix}${crypto.createHash("sha1").update(text).digest("hex").slice(0, 16)}`;

/**
 * Every parameterised statement runs as a named prepared statement, so a connection parses and plans it
 * once instead of on every call (for Prisma's larger queries, planning costs PostgreSQL more than running
 * them). Our hand-written SQL is a fixed set of statements: all stay prepared. Prisma's (given as config
 * objects) are as many as its query shapes (and lengths of IN lists), so a connection keeps the
 * `preparedLimit()` most recently used and deallocates the one that falls out.
 */
function prepareStatements(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const lru = new Map<string, true>();
  const connection = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection;
  const usePrepared = (name: string) => {
    if (lru.delete(name)) return lru.set(name, true);
    lru.set(name, true);
    while (lru.size > preparedLimit()) {
      const oldest = lru.keys().next().value!;
      lru.delete(oldest);
      // Queued ahead of the statement being sent. pg forgets it once the server has (the callback runs
      // before the connection sends its next statement), so a later use prepares it again; if the
      // DEALLOCATE fails (inside a failed transaction), the statement stays prepared and pg keeps knowing it.
      query(`DEALLOCATE "${oldest}"`, (err: unknown) => {
        if (!err) delete connection.parsedStatements[oldest];
      });
    }
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown, cb?: unknown) => {
    if (typeof text === "string" && Array.isArray(values) && values.length) {
      return query({ name: statementName("q", text), text, values }, cb);
    }
    const config = text as { name?: string; text?: unknown; values?: unknown } | null;
    if (config && typeof config === "object" && !config.name && typeof config.text === "string" && Array.isArray(config.values) && config.values.length) {
      const name = statementName("p", config.text);
      usePrepared(name);
      return query({ ...config, name }, values, cb);
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
