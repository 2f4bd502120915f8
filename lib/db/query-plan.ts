import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlResultSet } from "@prisma/driver-adapter-utils";
import type pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { readPool } from "@/lib/db";

// The SQL Prisma would send for a query, put to other uses without running the query itself: EXPLAIN of
// it (the planner's row estimate and plan), or a count of its rows that stops at a cap. A second Prisma
// client's adapter takes each statement, wraps it, and runs the wrapped statement instead (on the same
// pool, with the same arguments). Lists read the planner's estimate where an exact count would cost as much
// as the table is large. Like the lists, these read through readPool(): the replica when one is configured
// (its planner statistics are the primary's, replicated).

/** One node of EXPLAIN (FORMAT JSON)'s plan. */
export interface PlanNode {
  "Node Type": string;
  "Plan Rows": number;
  "Index Name"?: string;
  "Index Cond"?: string;
  Filter?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

export interface QueryPlan {
  sql: string;
  plan: PlanNode;
}

interface Capture {
  wrap: (sql: string) => string;
  results: { sql: string; result: SqlResultSet }[];
}

const capturing = new AsyncLocalStorage<Capture>();

class WrappedNotReturned extends Error {
  constructor() {
    super("the wrapped statement's result is not the query's");
  }
}

/** An adapter that runs each statement wrapped as the capture says, keeps the result, and fails the query. */
function wrappingAdapter(pgPool: pg.Pool): SqlDriverAdapterFactory {
  const inner = new PrismaPg(pgPool);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const adapter = await inner.connect();
      const run = async (query: SqlQuery): Promise<never> => {
        const capture = capturing.getStore();
        if (!capture) throw new Error("the wrapping client runs only inside wrapPrismaQuery");
        const result = await adapter.queryRaw({ ...query, sql: capture.wrap(query.sql) });
        capture.results.push({ sql: query.sql, result });
        throw new WrappedNotReturned();
      };
      const refuse = async (): Promise<never> => {
        throw new Error("the wrapping client runs no transactions or scripts");
      };
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        queryRaw: run,
        executeRaw: run,
        executeScript: refuse,
        startTransaction: refuse,
        getConnectionInfo: () => adapter.getConnectionInfo!(),
        dispose: () => adapter.dispose(),
      };
    },
  };
}

// One wrapping client per pool (the primary's, and the replica's while it is in use).
const g = globalThis as unknown as { quorumWrapping?: WeakMap<pg.Pool, PrismaClient> };

function wrappingClient(): PrismaClient {
  const current = readPool();
  const clients = (g.quorumWrapping ??= new WeakMap());
  let client = clients.get(current);
  if (!client) clients.set(current, (client = new PrismaClient({ adapter: wrappingAdapter(current) })));
  return client;
}

/**
 * Runs the first statement a Prisma call would send (given the wrapping client in place of db()) wrapped
 * by `wrap`, and answers that statement and the wrapped one's result. A findMany is one statement
 * (relations are loaded by joins).
 */
async function wrapPrismaQuery(
  query: (client: PrismaClient) => Promise<unknown>,
  wrap: (sql: string) => string,
): Promise<{ sql: string; result: SqlResultSet }> {
  const capture: Capture = { wrap, results: [] };
  try {
    // Prisma's promises are lazy: the query must start (be awaited) inside the capture's context.
    await capturing.run(capture, async () => await query(wrappingClient()));
  } catch (err) {
    if (!capture.results.length) throw err;
  }
  if (!capture.results.length) throw new Error("the query sent no statement");
  return capture.results[0];
}

/** The plan of the statement a Prisma call would send, without running it. */
export async function planPrismaQuery(query: (client: PrismaClient) => Promise<unknown>): Promise<QueryPlan> {
  const { sql, result } = await wrapPrismaQuery(query, (text) => `EXPLAIN (FORMAT JSON) ${text}`);
  const cell = result.rows[0]?.[0];
  const parsed = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
  return { sql, plan: parsed[0].Plan };
}

/**
 * How many rows a Prisma findMany (without take or orderBy) answers, reading at most `cap` of them (its
 * statement counted with LIMIT cap), so a scope larger than expected costs no more; null when there are
 * `cap` or more.
 */
export async function countPrismaRowsUpTo(query: (client: PrismaClient) => Promise<unknown>, cap: number): Promise<number | null> {
  if (!Number.isSafeInteger(cap) || cap < 1) throw new Error(`cap must be a positive integer, not ${cap}`);
  const { result } = await wrapPrismaQuery(query, (text) => `SELECT count(*) FROM (${text} LIMIT ${cap}) AS capped`);
  const n = Number(result.rows[0][0]);
  return n < cap ? n : null;
}

/** The plan of hand-written SQL with its parameters. */
export async function planSql(text: string, values: unknown[]): Promise<QueryPlan> {
  const { rows } = await readPool().query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
  return { sql: text, plan: rows[0]["QUERY PLAN"][0].Plan };
}

/** The rows the planner expects a query to answer (a plain select's: not a count, whose answer is one row). */
export function estimatedRows(plan: PlanNode): number {
  return Math.round(plan["Plan Rows"]);
}

/** Every node of a plan, depth first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}
