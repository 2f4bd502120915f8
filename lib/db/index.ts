import { PrismaPg } from "@prisma/adapter-pg";
import crypto from "node:crypto";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseReplicaUrl, databaseUrl } from "@/lib/env";
import { logError } from "@/lib/log/throttled";
import { setMetricSource } from "@/lib/log/metrics";
import { processPoolSize } from "@/lib/db/pool-size";
import { lsnBytes, maxReplicaLagMs, ReplicaLag } from "@/lib/db/replica-lag";

// One pg pool and one Prisma client per process on the primary, and with DATABASE_REPLICA_URL the same
// pair on a streaming replica for the reads readDb()/readPool() hand out. Prisma serves CRUD; the pool
// serves set-based SQL on hot paths. Kept on globalThis so dev-mode hot reloads do not open new pools.
interface Replica {
  pool: pg.Pool;
  prisma?: PrismaClient;
  lag: ReplicaLag;
  /** The lag at the last check (Infinity until the first, and while the replica is unreachable). */
  lagMs: number;
  timer: NodeJS.Timeout;
  checking?: Promise<number>;
}
const g = globalThis as unknown as { quorumPool?: pg.Pool; quorumPrisma?: PrismaClient; quorumReplica?: Replica };

function openPool(connectionString: string, role: string): pg.Pool {
  const p = new pg.Pool({
    connectionString,
    max: processPoolSize(),
    // While the database is unreachable, requests fail fast (a 503) instead of queueing for a connection.
    connectionTimeoutMillis: Number(process.env.DB_CONNECT_TIMEOUT_MS ?? 3000),
    // Timestamps are UTC everywhere (columns are "timestamp without time zone" holding UTC).
    options: "-c TimeZone=UTC",
  });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool
  // discards it and opens a new one on demand.
  p.on("error", (err) => logError(`${role}-idle`, `[${role}] idle connection error:`, err.message));
  p.on("connect", (client) => {
    // A connection dropped while checked out between two queries (inside a transaction) emits 'error'
    // on its client; without a listener that is an uncaught exception. The statement in progress fails
    // on its own (a 503 to the request), and the pool discards the client when it is released.
    client.on("error", (err) => logError(`${role}-connection`, `[${role}] connection error:`, err.message));
    prepareStatements(client);
  });
  return p;
}

/** The primary's pool: every write, every transaction, and every read not handed to readPool(). */
export function pool(): pg.Pool {
  if (!g.quorumPool) {
    g.quorumPool = openPool(databaseUrl(), "db");
    setMetricSource("dbPools", poolStats);
  }
  return g.quorumPool;
}

/** Each pool's connections, for the metrics (lib/log/metrics.ts). */
function poolStats() {
  const out = [];
  for (const [name, p] of [
    ["primary", g.quorumPool],
    ["replica", g.quorumReplica?.pool],
  ] as const)
    if (p) out.push({ pool: name, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount });
  return out;
}

/** The replica's lag at the last check in ms (Infinity while unreachable), null without DATABASE_REPLICA_URL. */
export function replicaLagMs(): number | null {
  if (!databaseReplicaUrl()) return null;
  usableReplica();
  return g.quorumReplica?.lagMs ?? null;
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
  const keepPrepared = (name: string) => {
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
    if (
      config &&
      typeof config === "object" &&
      !config.name &&
      typeof config.text === "string" &&
      Array.isArray(config.values) &&
      config.values.length
    ) {
      const name = statementName("p", config.text);
      keepPrepared(name);
      return query({ ...config, name }, values, cb);
    }
    return query(text, values, cb);
  };
}

/** The Prisma client on the primary: see pool(). */
export function db(): PrismaClient {
  g.quorumPrisma ??= new PrismaClient({ adapter: new PrismaPg(pool()) });
  return g.quorumPrisma;
}

/**
 * The client for reads that tolerate a little lag: the streaming replica at DATABASE_REPLICA_URL while it
 * is at most DATABASE_REPLICA_MAX_LAG_MS (default 5000) behind the primary, checked every second, else
 * (no replica configured, not yet checked, behind, unreachable, or not a standby) the primary's db().
 * Its callers: lists and their counts (lib/http/resource-routes.ts), the public counts
 * (lib/counts/classification-counts.ts), CSV exports (lib/domain/export-csv.ts) and the engine API's lists
 * of extracts and reductions (lib/engine/http/engine-routes.ts). Everything else reads the primary: shows,
 * anything in a transaction or after a write in the same request, authentication and sessions, the
 * subject queue, and the pipeline (a reducer reads the extracts it has just written). Lag is accepted,
 * as the established platform accepts it for its replica reads: a list can miss a record created less
 * than a moment ago, which GET on the record itself (the primary) answers.
 */
export function readDb(): PrismaClient {
  const r = usableReplica();
  if (!r) return db();
  r.prisma ??= new PrismaClient({ adapter: new PrismaPg(r.pool) });
  return r.prisma;
}

/** readDb()'s pg pool, for set-based SQL: the replica's while it is usable, else the primary's. */
export function readPool(): pg.Pool {
  return usableReplica()?.pool ?? pool();
}

const CHECK_INTERVAL_MS = 1000;

function usableReplica(): Replica | null {
  const url = databaseReplicaUrl();
  if (!url) return null;
  if (!g.quorumReplica) {
    const replica: Replica = {
      pool: openPool(url, "db-replica"),
      lag: new ReplicaLag(),
      lagMs: Infinity,
      timer: setInterval(() => void checkReplica(), CHECK_INTERVAL_MS),
    };
    replica.timer.unref();
    g.quorumReplica = replica;
    setMetricSource("replicaLag", () => (g.quorumReplica ? g.quorumReplica.lagMs / 1000 : null));
    void checkReplica();
  }
  return g.quorumReplica.lagMs <= maxReplicaLagMs(process.env.DATABASE_REPLICA_MAX_LAG_MS) ? g.quorumReplica : null;
}

/**
 * Measures the replica's lag now (lib/db/replica-lag.ts) and answers it in ms; Infinity when the replica
 * is unreachable or not a standby. The timer runs it every second; tests call it to see a change at once.
 * Without DATABASE_REPLICA_URL, Infinity.
 */
export function checkReplica(): Promise<number> {
  if (databaseReplicaUrl() && !g.quorumReplica) usableReplica();
  const r = g.quorumReplica;
  if (!r) return Promise.resolve(Infinity);
  r.checking ??= (async () => {
    try {
      const [primary, replica] = await Promise.all([
        pool().query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn"),
        r.pool.query<{ standby: boolean; lsn: string | null }>(
          "SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn",
        ),
      ]);
      const at = Date.now();
      const { standby, lsn } = replica.rows[0];
      if (!standby || !lsn) {
        logError(
          "db-replica-role",
          "[db-replica] DATABASE_REPLICA_URL is not a standby server (pg_is_in_recovery() is false); reads go to the primary",
        );
        r.lagMs = Infinity;
      } else {
        const keepMs = 2 * maxReplicaLagMs(process.env.DATABASE_REPLICA_MAX_LAG_MS) + 2 * CHECK_INTERVAL_MS;
        r.lagMs = r.lag.observe(at, lsnBytes(primary.rows[0].lsn), lsnBytes(lsn), keepMs);
      }
    } catch (err) {
      logError("db-replica-check", "[db-replica] lag check failed; reads go to the primary:", (err as Error).message);
      r.lagMs = Infinity;
    } finally {
      r.checking = undefined;
    }
    return r.lagMs;
  })();
  return r.checking;
}

export async function closeDb(): Promise<void> {
  const replica = g.quorumReplica;
  g.quorumReplica = undefined;
  if (replica) {
    clearInterval(replica.timer);
    await replica.checking;
    await replica.prisma?.$disconnect();
    await replica.pool.end();
  }
  await g.quorumPrisma?.$disconnect();
  await g.quorumPool?.end();
  g.quorumPrisma = undefined;
  g.quorumPool = undefined;
}
