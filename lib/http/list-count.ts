import { countPrismaRowsUpTo, estimatedRows, planPrismaQuery } from "@/lib/db/query-plan";
import type { PrismaClient } from "@/lib/generated/prisma/client";

// How a list answers meta.count without paying for the whole scope. In order:
//   exact    the page was the last one (fewer rows than asked for, fetched page_size + 1): the count is the
//            rows before it plus its own, no query at all;
//   counter  a counter the database keeps answers exactly this scope (the resource says when: the scope
//            must be one the counter counts, and the caller must see every record in it);
//   estimate the planner expects at least ESTIMATE_THRESHOLD rows: its estimate (EXPLAIN of the list's own
//            query), costing a plan, not a scan;
//   exact    otherwise a count, stopped at EXACT_COUNT_CAP rows; a planner so wrong that the cap is reached
//            gives an estimate of at least the cap.
// Whichever it is, count is at least what this page shows exists, and next_page comes from whether the page
// was full, never from the count, so paging neither stops early nor runs on past the last row.

export type CountSource = "exact" | "counter" | "estimate";

/** From this many expected rows an exact count is not worth its cost: the planner's estimate is answered. */
export const ESTIMATE_THRESHOLD = 10_000;
/** The most rows an exact count reads (when the planner expected fewer than ESTIMATE_THRESHOLD). */
export const EXACT_COUNT_CAP = 50_000;

export interface ListCount {
  count: number;
  source: CountSource;
}

/** What the page itself says: rows skipped before it, rows on it, and whether a row was found after it. */
export interface PageSeen {
  skipped: number;
  rows: number;
  more: boolean;
}

export interface ScopeCounting {
  /** The scope's exact size from a counter, or null when no counter answers this scope for this caller. */
  counter?: () => Promise<number | null>;
  /** The planner's estimate of the scope's rows. */
  estimate: () => Promise<number>;
  /** The scope's exact count, reading at most `cap` rows; null when there are more. */
  countUpTo: (cap: number) => Promise<number | null>;
}

export async function countList(page: PageSeen, counting: ScopeCounting): Promise<ListCount> {
  const atLeast = page.skipped + page.rows + (page.more ? 1 : 0);
  if (!page.more && (page.rows > 0 || page.skipped === 0)) return { count: page.skipped + page.rows, source: "exact" };
  const counted = counting.counter ? await counting.counter() : null;
  if (counted !== null) return { count: Math.max(counted, atLeast), source: "counter" };
  const estimate = await counting.estimate();
  if (estimate >= ESTIMATE_THRESHOLD) return { count: Math.max(estimate, atLeast), source: "estimate" };
  const n = await counting.countUpTo(EXACT_COUNT_CAP);
  if (n !== null) return { count: Math.max(n, atLeast), source: "exact" };
  return { count: Math.max(estimate, EXACT_COUNT_CAP, atLeast), source: "estimate" };
}

/** A page read with one row more than its size: its rows, and whether another page follows. */
export function splitPage<T>(found: T[], pageSize: number): { rows: T[]; more: boolean } {
  const more = found.length > pageSize;
  return { rows: more ? found.slice(0, pageSize) : found, more };
}

/**
 * The estimate and capped count of a Prisma list's scope, from `scope`: the findMany of its ids (its where,
 * no order, no take) on the client given.
 */
export function prismaScopeCounting(scope: (client: PrismaClient) => Promise<unknown>): Pick<ScopeCounting, "estimate" | "countUpTo"> {
  return {
    estimate: async () => estimatedRows((await planPrismaQuery(scope)).plan),
    countUpTo: (cap) => countPrismaRowsUpTo(scope, cap),
  };
}
