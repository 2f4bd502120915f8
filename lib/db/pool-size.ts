/** The connections a process's pool opens when DB_POOL_SIZE is not set: the web tier's default total. */
export const DEFAULT_POOL_SIZE = 10;

/**
 * DB_POOL_SIZE for each of the `processes` web server processes `npm start` runs (WEB_CONCURRENCY): the
 * operator's value when set (it is per process), else the default total split among them (at least 2
 * each). PostgreSQL does best with few connections doing work at once: on the benchmark's two cores, two
 * processes with 10 connections each lost throughput on writes against one process, and gained with 5
 * each. Raise DB_POOL_SIZE for a database with more cores than the web tier's default total suits.
 */
export function webPoolSize(configured: string | undefined, processes: number): number {
  const own = Math.floor(Number(configured)); // NaN or 0 when unset, blank or not a number
  if (own > 0) return own;
  return Math.max(2, Math.ceil(DEFAULT_POOL_SIZE / Math.max(1, processes)));
}

/**
 * This process's pool size: DB_POOL_SIZE as `npm start` set it for the process (or the operator did). With
 * DATABASE_REPLICA_URL the process opens a second pool of this size on the replica (lib/db/index.ts readPool), on
 * first use, so the replica's connections count against its own max_connections, not the primary's.
 */
export const processPoolSize = (): number => webPoolSize(process.env.DB_POOL_SIZE, 1);

/**
 * Classification create statements one process runs at once (lib/db/statement-batcher.ts): a fifth of its
 * connections, at least one. Creates arriving meanwhile wait and go together in the next statement, so
 * fewer in flight means larger groups: on the benchmark's two cores one process with 10 connections did
 * best with 2, and two processes (5 connections each) with 1 each (with 2 each, two processes lost 14 %
 * on creates against one). A larger DB_POOL_SIZE, for a database with more cores, lets more run at once.
 */
export function createStatementsInFlight(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 5));
}
