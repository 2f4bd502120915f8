import { consensusReducer } from "./consensus";
import { countReducer } from "./count";
import { externalReducer } from "./external";
import { firstExtractReducer } from "./first-extract";
import { queueReducer } from "./queue";
import { rectangleReducer } from "./rectangle";
import type { ReducerDef } from "./reducer";
import type { ReducerConfigOf, ReducerType } from "./schemas";
import { statsReducer } from "./stats";
import { summaryStatsReducer } from "./summary-stats";
import { uniqueCountReducer } from "./unique-count";

/** Every reducer type: config schema, output shape, `reduce` and (running-capable types) `runningReduce`. */
export const reducers: { [K in ReducerType]: ReducerDef<ReducerConfigOf<K>> } = {
  consensus: consensusReducer,
  count: countReducer,
  stats: statsReducer,
  first_extract: firstExtractReducer,
  summary_stats: summaryStatsReducer,
  unique_count: uniqueCountReducer,
  rectangle: rectangleReducer,
  queue: queueReducer,
  external: externalReducer,
};
