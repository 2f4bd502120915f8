import type { ExtractRecord } from "../types";
import { dataField, numberOr, splitFieldRef, type ReducerDef, type ReductionData, type ReductionStore } from "./reducer";
import { ZSummaryStatsReducer, type SummaryOperation, type TSummaryStatsReducer } from "./schemas";

const NUMERIC = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** A value as a number: numbers, and numeric strings (pluck_field copies subject metadata, which is strings). */
export function numericValue(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && NUMERIC.test(v)) return Number(v);
  return null;
}

/** The numbers of `summarize_field` in the extracts of its extractor; arrays contribute each element. */
export function summaryValues(config: Pick<TSummaryStatsReducer, "summarize_field">, extracts: readonly ExtractRecord[]): number[] {
  const { extractorKey, field } = splitFieldRef(config.summarize_field);
  const values: number[] = [];
  for (const e of extracts) {
    if (e.extractorKey !== extractorKey) continue;
    const v = dataField(e.data, field);
    for (const item of Array.isArray(v) ? v : [v]) {
      const n = numericValue(item);
      if (n !== null) values.push(n);
    }
  }
  return values;
}

interface Welford {
  count: number;
  mean: number;
  m2: number;
  min: number | null;
  max: number | null;
  sum: number;
}

function addValue(s: Welford, x: number): Welford {
  const count = s.count + 1;
  const delta = x - s.mean;
  const mean = s.mean + delta / count;
  return {
    count,
    mean,
    m2: s.m2 + delta * (x - mean),
    min: s.min === null ? x : Math.min(s.min, x),
    max: s.max === null ? x : Math.max(s.max, x),
    sum: s.sum + x,
  };
}

const EMPTY: Welford = { count: 0, mean: 0, m2: 0, min: null, max: null, sum: 0 };

function median(sorted: number[]): number | null {
  if (!sorted.length) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function mode(values: number[]): number | null {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: number | null = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)! || (n === counts.get(best)! && v < best)) best = v;
  return best;
}

function output(ops: readonly SummaryOperation[], s: Welford, values?: number[]): ReductionData {
  // With every value at hand (default mode) use the two-pass formula: exact where Welford drifts by an ulp.
  const variance = !s.count ? null : values ? values.reduce((acc, x) => acc + (x - s.sum / s.count) ** 2, 0) / s.count : s.m2 / s.count;
  const sorted = values ? [...values].sort((a, b) => a - b) : undefined;
  const all: Record<SummaryOperation, () => number | null> = {
    count: () => s.count,
    min: () => s.min,
    max: () => s.max,
    sum: () => s.sum,
    mean: () => (s.count ? (values ? s.sum / s.count : s.mean) : null),
    variance: () => variance,
    stdev: () => (variance === null ? null : Math.sqrt(variance)),
    median: () => (sorted ? median(sorted) : null),
    mode: () => (values ? mode(values) : null),
  };
  return Object.fromEntries(ops.map((op) => [op, all[op]()]));
}

function storeOf(store: ReductionStore): Welford {
  return {
    count: numberOr(store.count, 0),
    mean: numberOr(store.mean, 0),
    m2: numberOr(store.m2, 0),
    min: typeof store.min === "number" ? store.min : null,
    max: typeof store.max === "number" ? store.max : null,
    sum: numberOr(store.sum, 0),
  };
}

/**
 * `summary_stats` → `{<operation>: value}` for each configured operation of `summarize_field`'s numbers
 * (numbers and numeric strings; arrays count each element), e.g. `{"mean": 4.5, "max": 7}`. `variance` and
 * `stdev` are the population ones (divide by n); `median` of an even count is the mean of the middle two;
 * `mode` ties go to the smallest value. With no values: count 0, sum 0, the others null. Running store
 * (Welford): `{count, mean, m2, min, max, sum}`; median and mode are refused in running mode.
 */
export const summaryStatsReducer: ReducerDef<TSummaryStatsReducer> = {
  schema: ZSummaryStatsReducer,
  output: "{count?, min?, max?, sum?, mean?, variance?, stdev?, median?, mode?}: one key per configured operation",
  reduce(config, extracts) {
    const values = summaryValues(config, extracts);
    return output(config.operations, values.reduce(addValue, EMPTY), values);
  },
  runningReduce(config, newExtracts, store) {
    const s = summaryValues(config, newExtracts).reduce(addValue, storeOf(store));
    return { data: output(config.operations, s), store: { ...s } };
  },
};
