// A counts chart's horizontal axis: every period of the range shown, those without classifications as 0, so
// one busy day is one narrow bar among thirty rather than a bar across the whole chart. Pure (tested in
// fill-periods.test.ts); buckets are the counts API's: UTC midnight of the day, the ISO week's Monday, the
// month's first, the year's first ("2026-03-02T00:00:00.000Z").
import type { CountBucket } from "@/components/ui/wire-types";

export type Period = "day" | "week" | "month" | "year";

/** How many periods a chart shows when no range is chosen: the last 30 days, 12 weeks, 12 months, 5 years. */
export const DEFAULT_SPAN: Record<Period, number> = { day: 30, week: 12, month: 12, year: 5 };

/** Beyond this many periods the axis is not filled in (ten years of days would be 3,650 bars). */
export const MAX_PERIODS = 750;

const DAY = 86_400_000;

const asPeriod = (p: string): Period => (p === "day" || p === "week" || p === "year" ? p : "month");

/** The start of the period (UTC) a moment falls in. */
export function periodStart(when: Date, period: string): Date {
  const y = when.getUTCFullYear();
  const m = when.getUTCMonth();
  const d = when.getUTCDate();
  switch (asPeriod(period)) {
    case "day":
      return new Date(Date.UTC(y, m, d));
    case "week": {
      const day = new Date(Date.UTC(y, m, d));
      return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
    }
    case "month":
      return new Date(Date.UTC(y, m, 1));
    case "year":
      return new Date(Date.UTC(y, 0, 1));
  }
}

/** The start of the period `n` periods after the one starting at `start` (n may be negative). */
export function addPeriods(start: Date, period: string, n: number): Date {
  switch (asPeriod(period)) {
    case "day":
      return new Date(start.getTime() + n * DAY);
    case "week":
      return new Date(start.getTime() + 7 * n * DAY);
    case "month":
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + n, 1));
    case "year":
      return new Date(Date.UTC(start.getUTCFullYear() + n, 0, 1));
  }
}

const key = (d: Date) => `${d.toISOString().slice(0, 10)}T00:00:00.000Z`;
/** A YYYY-MM-DD date (the stats page's range) as a moment, or null. */
const parseDay = (s: string | undefined) =>
  s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) ? new Date(`${s}T00:00:00Z`) : null;

/**
 * Every period from the range's start to its end with its count (0 where the data has none). The range is
 * `start`..`end` (YYYY-MM-DD) when given; without a start, the default span ending at the end; without an
 * end, today; widened to take in any data outside it. Past MAX_PERIODS it keeps to the data's own periods.
 */
export function fillPeriods(
  data: CountBucket[],
  period: string,
  { start, end, today = new Date(), span }: { start?: string; end?: string; today?: Date; span?: number } = {},
): CountBucket[] {
  const p = asPeriod(period);
  const counts = new Map<string, number>();
  for (const d of data) {
    const at = new Date(d.period);
    if (Number.isNaN(at.getTime())) continue;
    const k = key(periodStart(at, p));
    counts.set(k, (counts.get(k) ?? 0) + d.count);
  }
  const known = [...counts.keys()].sort();
  let last = periodStart(parseDay(end) ?? today, p);
  const startDay = parseDay(start);
  let first = startDay ? periodStart(startDay, p) : addPeriods(last, p, -((span ?? DEFAULT_SPAN[p]) - 1));
  if (known.length) {
    if (known[0] < key(first)) first = new Date(known[0]);
    if (known[known.length - 1] > key(last)) last = new Date(known[known.length - 1]);
  }
  if (first > last) return known.map((k) => ({ period: k, count: counts.get(k)! }));
  const out: CountBucket[] = [];
  for (let at = first; at <= last; at = addPeriods(at, p, 1)) {
    if (out.length >= MAX_PERIODS) return known.map((k) => ({ period: k, count: counts.get(k)! }));
    out.push({ period: key(at), count: counts.get(key(at)) ?? 0 });
  }
  return out;
}
