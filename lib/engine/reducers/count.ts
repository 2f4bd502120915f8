import type { ExtractRecord } from "../types";
import { idSet, numberOr, type ReducerDef } from "./reducer";
import { ZCountReducer, type TCountReducer } from "./schemas";

/**
 * `count` → `{classifications, extracts}`: distinct classifications (after the repeated-classification
 * filter) and extracts. Running store: `{classifications, extracts, classification_ids}`; the ids keep a
 * classification whose extracts arrive in two batches (a late external extractor) from counting twice.
 */
export const countReducer: ReducerDef<TCountReducer> = {
  schema: ZCountReducer,
  output: "{classifications: number, extracts: number}",
  reduce: (_config, extracts) => ({ classifications: new Set(extracts.map((e) => e.classificationId)).size, extracts: extracts.length }),
  runningReduce(_config, newExtracts: readonly ExtractRecord[], store) {
    const ids = idSet(store.classification_ids);
    let classifications = numberOr(store.classifications, 0);
    for (const e of newExtracts) {
      if (ids.has(e.classificationId)) continue;
      ids.add(e.classificationId);
      classifications++;
    }
    const extracts = numberOr(store.extracts, 0) + newExtracts.length;
    return { data: { classifications, extracts }, store: { classifications, extracts, classification_ids: [...ids] } };
  },
};
