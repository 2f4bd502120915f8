import { z } from "zod";
import { dispatchOn, ZFieldRef, ZHttpsUrl, ZKey, zEnum } from "../validation";

// Config schemas of every reducer type: the generic fields (topic, reduction mode, filters, grouping) plus the
// type's own. Strict: unknown fields are errors.

export const TOPICS = ["reduce_by_subject", "reduce_by_user"] as const;
export const REDUCTION_MODES = ["default_reduction", "running_reduction"] as const;
export const REPEATED_CLASSIFICATIONS = ["keep_first", "keep_last", "keep_all"] as const;
export const EMPTY_EXTRACTS = ["keep_all", "ignore_empty"] as const;
export const TRAINING_BEHAVIORS = ["ignore_training", "training_only", "experiment_only"] as const;
/**
 * What grouping does with an extract group (a classification) lacking the grouping field:
 * `ignore` drops it, `error` makes grouping throw GroupingError, `group_missing` reduces it in subgroup `_missing`.
 */
export const GROUPING_IF_MISSING = ["ignore", "error", "group_missing"] as const;
export const SUMMARY_OPERATIONS = ["count", "min", "max", "sum", "mean", "variance", "stdev", "median", "mode"] as const;
export type SummaryOperation = (typeof SUMMARY_OPERATIONS)[number];
/** Operations a running summary can keep exactly in its store (Welford); median and mode need every value. */
export const RUNNING_SUMMARY_OPERATIONS: readonly SummaryOperation[] = ["count", "min", "max", "sum", "mean", "variance", "stdev"];
// (also the default `operations`, so a running summary_stats needs no explicit list)

const ZExtractorKeys = z
  .union([ZKey, z.array(ZKey).max(100), z.literal(""), z.null()], { error: "must be an extractor key or an array of them" })
  .transform((v): string[] => (v === null || v === "" ? [] : typeof v === "string" ? [v] : [...new Set(v)]));

const ZIndex = z.number({ error: "must be an integer" }).int("must be an integer").min(-1_000_000).max(1_000_000);

export const ZReducerFilters = z.strictObject({
  extractor_keys: ZExtractorKeys.default([]),
  repeated_classifications: zEnum(REPEATED_CLASSIFICATIONS).default("keep_first"),
  empty_extracts: zEnum(EMPTY_EXTRACTS).default("keep_all"),
  training_behavior: zEnum(TRAINING_BEHAVIORS).default("ignore_training"),
  from: ZIndex.default(0),
  to: ZIndex.default(-1),
});
export type TReducerFilters = z.output<typeof ZReducerFilters>;

export const ZReducerGrouping = z.strictObject({
  field_name: ZFieldRef,
  if_missing: zEnum(GROUPING_IF_MISSING).default("ignore"),
});
export type TReducerGrouping = z.output<typeof ZReducerGrouping>;

/** Fields every reducer accepts. */
export const genericReducerFields = {
  topic: zEnum(TOPICS).default("reduce_by_subject"),
  reduction_mode: zEnum(REDUCTION_MODES).default("default_reduction"),
  filters: ZReducerFilters.default(() => ZReducerFilters.parse({})),
  grouping: ZReducerGrouping.optional(),
};

export const ZConsensusReducer = z.strictObject({ type: z.literal("consensus"), ...genericReducerFields });
export const ZCountReducer = z.strictObject({ type: z.literal("count"), ...genericReducerFields });
export const ZStatsReducer = z.strictObject({ type: z.literal("stats"), ...genericReducerFields });
export const ZFirstExtractReducer = z.strictObject({ type: z.literal("first_extract"), ...genericReducerFields });
export const ZSummaryStatsReducer = z.strictObject({
  type: z.literal("summary_stats"),
  ...genericReducerFields,
  summarize_field: ZFieldRef,
  operations: z
    .array(zEnum(SUMMARY_OPERATIONS))
    .min(1, "needs at least one operation")
    .transform((ops) => [...new Set(ops)])
    .default(() => [...RUNNING_SUMMARY_OPERATIONS]),
});
export const ZUniqueCountReducer = z.strictObject({ type: z.literal("unique_count"), ...genericReducerFields, field: ZFieldRef });
export const ZRectangleReducer = z.strictObject({
  type: z.literal("rectangle"),
  ...genericReducerFields,
  eps: z.number().positive("must be > 0").max(1e9).default(5),
  min_samples: z.number().int().min(1).max(10_000).default(2),
});
export const ZQueueReducer = z.strictObject({
  type: z.literal("queue"),
  ...genericReducerFields,
  queue_url: ZHttpsUrl,
  queue_name: z.string().min(1).max(200),
});
export const ZExternalReducer = z.strictObject({ type: z.literal("external"), ...genericReducerFields, url: ZHttpsUrl });

export const reducerSchemas = {
  consensus: ZConsensusReducer,
  count: ZCountReducer,
  stats: ZStatsReducer,
  first_extract: ZFirstExtractReducer,
  summary_stats: ZSummaryStatsReducer,
  unique_count: ZUniqueCountReducer,
  rectangle: ZRectangleReducer,
  queue: ZQueueReducer,
  external: ZExternalReducer,
} as const;

export type ReducerType = keyof typeof reducerSchemas;
export const REDUCER_TYPES = Object.keys(reducerSchemas) as ReducerType[];
/** Reducer types that implement `runningReduce`; others reject `reduction_mode: running_reduction`. */
export const RUNNING_REDUCER_TYPES: readonly ReducerType[] = [
  "consensus",
  "count",
  "stats",
  "first_extract",
  "summary_stats",
  "unique_count",
  "queue",
];

export type ReducerConfigOf<T extends ReducerType> = z.output<(typeof reducerSchemas)[T]>;
export type TConsensusReducer = ReducerConfigOf<"consensus">;
export type TCountReducer = ReducerConfigOf<"count">;
export type TStatsReducer = ReducerConfigOf<"stats">;
export type TFirstExtractReducer = ReducerConfigOf<"first_extract">;
export type TSummaryStatsReducer = ReducerConfigOf<"summary_stats">;
export type TUniqueCountReducer = ReducerConfigOf<"unique_count">;
export type TRectangleReducer = ReducerConfigOf<"rectangle">;
export type TQueueReducer = ReducerConfigOf<"queue">;
export type TExternalReducer = ReducerConfigOf<"external">;
export type TReducerConfig = { [K in ReducerType]: ReducerConfigOf<K> }[ReducerType];
/** What the filter and grouping stages read from any reducer config. */
export type ReducerSelection = {
  topic?: TReducerConfig["topic"];
  filters?: Partial<TReducerFilters> | TReducerFilters;
  grouping?: TReducerGrouping;
};

/**
 * Any reducer config: `type` picks the schema. Also checks what one config can check alone: running mode only
 * for running-capable types, without keep_last or a negative `from`, and a running summary_stats only with
 * operations a store can keep.
 */
export const ZReducerConfig = dispatchOn("type", "reducer type", reducerSchemas).superRefine((value, ctx) => {
  const config = value as TReducerConfig;
  if (config.reduction_mode !== "running_reduction") return;
  // A running reduction can only add extracts; filters that later drop an already incorporated one cannot apply.
  if (config.filters.repeated_classifications === "keep_last")
    ctx.addIssue({
      code: "custom",
      path: ["filters", "repeated_classifications"],
      message: "keep_last cannot be used with running_reduction (a later classification would have to undo an earlier one)",
    });
  if (config.filters.from < 0)
    ctx.addIssue({
      code: "custom",
      path: ["filters", "from"],
      message: "a negative from cannot be used with running_reduction (the window would drop incorporated extracts)",
    });
  if (!RUNNING_REDUCER_TYPES.includes(config.type)) {
    ctx.addIssue({ code: "custom", path: ["reduction_mode"], message: `reducer type '${config.type}' does not support running_reduction` });
  } else if (config.type === "summary_stats") {
    const bad = config.operations.filter((op) => !RUNNING_SUMMARY_OPERATIONS.includes(op));
    if (bad.length)
      ctx.addIssue({ code: "custom", path: ["operations"], message: `${bad.join(", ")} cannot be computed in running_reduction` });
  }
}) as unknown as z.ZodType<TReducerConfig, unknown>;
