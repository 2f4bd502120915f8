import type { ExtractRecord } from "../types";
import { reducers } from "./registry";
import { ReducerError, type ReducerOutput, type ReductionData, type ReductionStore } from "./reducer";
import type { ReducerType } from "./schemas";

export interface PreviousReduction {
  data: ReductionData | null;
  store: ReductionStore | null;
  /** Extracts already incorporated into this reduction (running mode); they are never applied again. */
  incorporatedExtractIds?: ReadonlySet<number> | readonly number[];
}

export interface ReduceResult extends ReducerOutput {
  /** Running mode: the extracts applied by this call, to record as incorporated. Default mode: every extract. */
  incorporatedExtractIds: number[];
}

/** The extracts not yet incorporated into a running reduction, in their order, each once. */
export function newExtractsFor(
  extracts: readonly ExtractRecord[],
  incorporatedIds: ReadonlySet<number> | readonly number[],
): ExtractRecord[] {
  const done = new Set(incorporatedIds);
  const out: ExtractRecord[] = [];
  for (const e of extracts) {
    if (done.has(e.id)) continue;
    done.add(e.id);
    out.push(e);
  }
  return out;
}

/**
 * Runs a reducer over one subgroup's (filtered) extracts. Default mode reduces them all (the previous
 * reduction is ignored; store null). Running mode applies only extracts not in
 * `previous.incorporatedExtractIds` to `previous.store`; with nothing new it returns the previous data and
 * store unchanged. Throws ReducerError for remote types (external) and for running mode on a type without it.
 */
export function reduce(
  config: { type: string; reduction_mode?: string },
  extracts: readonly ExtractRecord[],
  previous: PreviousReduction | null = null,
): ReduceResult {
  const def = Object.hasOwn(reducers, config.type) ? reducers[config.type as ReducerType] : undefined;
  if (!def) throw new ReducerError(`unknown reducer type '${config.type}'`);
  if ((config.reduction_mode ?? "default_reduction") !== "running_reduction") {
    return { data: def.reduce(config as never, extracts), store: null, incorporatedExtractIds: extracts.map((e) => e.id) };
  }
  if (!def.runningReduce) throw new ReducerError(`reducer type '${config.type}' does not support running_reduction`);
  const fresh = newExtractsFor(extracts, previous?.incorporatedExtractIds ?? []);
  if (!fresh.length && previous) return { data: previous.data ?? {}, store: previous.store ?? {}, incorporatedExtractIds: [] };
  const out = def.runningReduce(config as never, fresh, previous?.store ?? {});
  return { data: out.data, store: out.store, incorporatedExtractIds: fresh.map((e) => e.id) };
}
