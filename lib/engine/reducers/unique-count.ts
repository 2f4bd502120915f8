import type { ExtractRecord } from "../types";
import { dataField, splitFieldRef, type ReducerDef } from "./reducer";
import { ZUniqueCountReducer, type TUniqueCountReducer } from "./schemas";

/** A value's identity for uniqueness: JSON with object keys sorted (so `{a,b}` equals `{b,a}`; 1 differs from "1"). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

function addValues(values: unknown[], config: Pick<TUniqueCountReducer, "field">, extracts: readonly ExtractRecord[]): unknown[] {
  const { extractorKey, field } = splitFieldRef(config.field);
  const seen = new Set(values.map(canonicalJson));
  const out = [...values];
  for (const e of extracts) {
    if (e.extractorKey !== extractorKey) continue;
    const v = dataField(e.data, field);
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item === null || item === undefined) continue;
      const id = canonicalJson(item);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(item);
    }
  }
  return out;
}

/**
 * `unique_count` → `{unique_count, values}`: the distinct values of `field` (`<extractor_key>.<field>`) over the
 * extracts of that extractor, in first-seen order; an array value contributes each element; null/absent are
 * skipped; no type coercion. Running store: `{values}`.
 */
export const uniqueCountReducer: ReducerDef<TUniqueCountReducer> = {
  schema: ZUniqueCountReducer,
  output: "{unique_count: number, values: unknown[]}",
  reduce(config, extracts) {
    const values = addValues([], config, extracts);
    return { unique_count: values.length, values };
  },
  runningReduce(config, newExtracts, store) {
    const values = addValues(Array.isArray(store.values) ? store.values : [], config, newExtracts);
    return { data: { unique_count: values.length, values }, store: { values } };
  },
};
