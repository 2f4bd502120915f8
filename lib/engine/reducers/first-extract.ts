import type { ReducerDef } from "./reducer";
import { ZFirstExtractReducer, type TFirstExtractReducer } from "./schemas";

/**
 * `first_extract` → the data of the first extract (classification order), `{}` when there is none (an
 * empty reduction, not stored). Running store: `{first_extract_id, data}`; once set it never changes.
 */
export const firstExtractReducer: ReducerDef<TFirstExtractReducer> = {
  schema: ZFirstExtractReducer,
  output: "the first extract's data",
  reduce: (_config, extracts) => ({ ...(extracts[0]?.data ?? {}) }),
  runningReduce(_config, newExtracts, store) {
    if (typeof store.first_extract_id === "number")
      return { data: { ...((store.data as Record<string, unknown>) ?? {}) }, store: { ...store } };
    const first = newExtracts[0];
    if (!first) return { data: {}, store: {} };
    return { data: { ...(first.data ?? {}) }, store: { first_extract_id: first.id, data: first.data ?? {} } };
  },
};
