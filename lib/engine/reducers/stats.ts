import { numberOr, type ReducerDef, type ReductionData } from "./reducer";
import { ZStatsReducer, type TStatsReducer } from "./schemas";
import type { ExtractRecord } from "../types";

/** What a value adds to its key's sum: numbers themselves, true 1, false 0; anything else nothing. */
function contribution(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return null;
}

/** Sums into `sums`, an object without a prototype: data keys are volunteers' (`constructor`, `__proto__`). */
function addInto(sums: ReductionData, extracts: readonly ExtractRecord[]): ReductionData {
  for (const e of extracts) {
    for (const [key, v] of Object.entries(e.data ?? {})) {
      const c = contribution(v);
      if (c !== null) sums[key] = numberOr(sums[key], 0) + c;
    }
  }
  return sums;
}

/**
 * `stats` (simple stats) → `{<key>: sum}`: per data key, the sum over all extracts; true counts 1, false 0;
 * keys with only non-numeric values are left out. Running store: the sums themselves.
 */
export const statsReducer: ReducerDef<TStatsReducer> = {
  schema: ZStatsReducer,
  output: "{[key]: number} (sum per extracted key; true = 1, false = 0)",
  reduce: (_config, extracts) => addInto(Object.create(null), extracts),
  runningReduce(_config, newExtracts, store) {
    const sums = addInto(Object.assign(Object.create(null), store), newExtracts);
    return { data: sums, store: { ...sums } };
  },
};
