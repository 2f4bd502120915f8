// The configuration example of reference-behaviour.md ("B. Decision engine: wire shapes"), for tests and
// documentation: every kind of extractor, reducer option and rule topic in one workflow.
// `promoteTo`: the workflow the user rule promotes volunteers onto (one of the same project, when saved).
export function referenceEngineConfig(id: number, promoteTo = 13) {
  return {
    id,
    status: "active",
    rules_applied: "all_matching_rules",
    extractors_config: {
      q: { type: "question", task_key: "T0", if_missing: "ignore", minimum_workflow_version: "2.0" },
      s: { type: "survey", task_key: "T1", nothing_here_choice: "NTHNGHR" },
      f: { type: "pluck_field", field_map: { name: "$.subject.metadata.name", size: "$.subject.metadata.size" }, if_missing: "reject" },
      x: { type: "external", url: "https://extractor.example.org/run" },
    },
    reducers_config: {
      c: {
        type: "consensus",
        topic: "reduce_by_subject",
        reduction_mode: "default_reduction",
        filters: {
          extractor_keys: ["q"],
          repeated_classifications: "keep_first",
          training_behavior: "ignore_training",
          empty_extracts: "keep_all",
          from: 0,
          to: -1,
        },
        grouping: { field_name: "f.name", if_missing: "ignore" },
      },
      n: { type: "count", reduction_mode: "running_reduction" },
      m: { type: "summary_stats", summarize_field: "f.size", operations: ["mean", "max"] },
      u: { type: "count", topic: "reduce_by_user" },
    },
    rules_config: [
      { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] },
      {
        topic: "user",
        if: ["gte", ["lookup", "u.classifications", 0], ["const", 50]],
        then: [{ action: "promote_user", workflow_id: String(promoteTo) }],
      },
    ],
  };
}
