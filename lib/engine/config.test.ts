import { describe, expect, it } from "vitest";
import { configWarnings, parseEngineWorkflowConfig, type TEngineWorkflowConfig } from "./config";
import { referenceEngineConfig } from "./reference-config";

const example = { workflow: referenceEngineConfig(12) };

const defaultFilters = {
  extractor_keys: [],
  repeated_classifications: "keep_first",
  empty_extracts: "keep_all",
  training_behavior: "ignore_training",
  from: 0,
  to: -1,
};
const generic = { topic: "reduce_by_subject", reduction_mode: "default_reduction", filters: defaultFilters };

const ok = (input: unknown): TEngineWorkflowConfig => {
  const r = parseEngineWorkflowConfig(input);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const error = (input: unknown): string => {
  const r = parseEngineWorkflowConfig(input);
  if (r.ok) throw new Error("expected an error");
  return r.message;
};

describe("valid configurations", () => {
  it("parses the reference example with every default filled", () => {
    expect(ok(example)).toEqual({
      id: 12,
      status: "active",
      rules_applied: "all_matching_rules",
      public_extracts: false,
      public_reductions: false,
      extractors_config: {
        q: { type: "question", task_key: "T0", if_missing: "ignore", minimum_workflow_version: "2.0" },
        s: { type: "survey", task_key: "T1", if_missing: "error", nothing_here_choice: "NTHNGHR" },
        f: { type: "pluck_field", field_map: { name: "$.subject.metadata.name", size: "$.subject.metadata.size" }, if_missing: "reject" },
        x: { type: "external", url: "https://extractor.example.org/run", if_missing: "error" },
      },
      reducers_config: {
        c: {
          type: "consensus",
          ...generic,
          filters: { ...defaultFilters, extractor_keys: ["q"] },
          grouping: { field_name: "f.name", if_missing: "ignore" },
        },
        n: { type: "count", ...generic, reduction_mode: "running_reduction" },
        m: { type: "summary_stats", ...generic, summarize_field: "f.size", operations: ["mean", "max"] },
        u: { type: "count", ...generic, topic: "reduce_by_user" },
      },
      rules_config: [
        {
          topic: "subject",
          if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]],
          then: [{ action: "retire_subject", reason: "consensus" }],
        },
        {
          topic: "user",
          if: ["gte", ["lookup", "u.classifications", 0], ["const", 50]],
          then: [{ action: "promote_user", workflow_id: "13" }],
        },
      ],
    });
  });

  it("round-trips: a parsed config (as JSON) parses to itself", () => {
    const once = ok(example);
    expect(ok(JSON.parse(JSON.stringify(once)))).toEqual(once);
    expect(ok({ workflow: once })).toEqual(once);
  });

  it.each([
    [
      "public data",
      { id: 3, public_extracts: true, public_reductions: true },
      {
        id: 3,
        status: "active",
        rules_applied: "all_matching_rules",
        public_extracts: true,
        public_reductions: true,
        extractors_config: {},
        reducers_config: {},
        rules_config: [],
      },
    ],
    [
      "minimal",
      { id: 5 },
      {
        id: 5,
        status: "active",
        rules_applied: "all_matching_rules",
        public_extracts: false,
        public_reductions: false,
        extractors_config: {},
        reducers_config: {},
        rules_config: [],
      },
    ],
    [
      "id as digits",
      { id: "7", status: "paused", rules_applied: "no_rules" },
      {
        id: 7,
        status: "paused",
        rules_applied: "no_rules",
        public_extracts: false,
        public_reductions: false,
        extractors_config: {},
        reducers_config: {},
        rules_config: [],
      },
    ],
    [
      "halted, first_matching_rule",
      { id: 1, status: "halted", rules_applied: "first_matching_rule" },
      {
        id: 1,
        status: "halted",
        rules_applied: "first_matching_rule",
        public_extracts: false,
        public_reductions: false,
        extractors_config: {},
        reducers_config: {},
        rules_config: [],
      },
    ],
  ])("%s", (_n, input, expected) => {
    expect(ok(input)).toEqual(expected);
  });

  it.each([
    [
      "extractor_keys as a string",
      { type: "count", filters: { extractor_keys: "a" } },
      { filters: { ...defaultFilters, extractor_keys: ["a"] } },
    ],
    ["extractor_keys blank", { type: "count", filters: { extractor_keys: "" } }, { filters: defaultFilters }],
    [
      "grouping if_missing default",
      { type: "count", grouping: { field_name: "a.x" } },
      { grouping: { field_name: "a.x", if_missing: "ignore" } },
    ],
    [
      "summary_stats default operations",
      { type: "summary_stats", summarize_field: "a.x" },
      { operations: ["count", "min", "max", "sum", "mean", "variance", "stdev"] },
    ],
    ["rectangle defaults", { type: "rectangle" }, { eps: 5, min_samples: 2 }],
    ["queue", { type: "queue", queue_url: "https://q.example.org", queue_name: "n" }, { queue_url: "https://q.example.org" }],
    ["unique_count running", { type: "unique_count", field: "a.x", reduction_mode: "running_reduction" }, { field: "a.x" }],
    ["every type-free reducer", { type: "first_extract" }, generic],
  ])("reducer: %s", (_n, reducer, expected) => {
    const parsed = ok({ id: 1, extractors_config: { a: { type: "blank", task_key: "T0" } }, reducers_config: { r: reducer } });
    expect(parsed.reducers_config.r).toMatchObject(expected);
  });

  it("subject lookups need no reducer; keys may use _ and -", () => {
    const parsed = ok({
      id: 1,
      reducers_config: { "my_count-1": { type: "count" } },
      rules_config: [
        {
          if: ["and", ["gt", ["to_f", ["lookup", "subject.size", "0"]], ["const", 3]], ["lookup", "my_count-1.extracts", 0]],
          then: [{ action: "add_subject_to_set", subject_set_id: 9 }],
        },
      ],
    });
    expect(parsed.rules_config[0].then).toEqual([{ action: "add_subject_to_set", subject_set_id: "9" }]);
  });
});

const base = { id: 1, extractors_config: { q: { type: "question", task_key: "T0" } }, reducers_config: { c: { type: "consensus" } } };
const withReducer = (r: object) => ({ ...base, reducers_config: { c: r } });
const withRule = (rule: object) => ({ ...base, rules_config: [rule] });
const retire = [{ action: "retire_subject" }];

describe("invalid configurations name the path", () => {
  it.each([
    ["not an object", [], "workflow: must be an object"],
    ["missing id", { status: "active" }, "id: must be a positive integer"],
    ["bad id", { id: -3 }, "id: must be a positive integer"],
    ["bad status", { id: 1, status: "sleeping" }, "status: must be one of active, paused, halted"],
    [
      "bad rules_applied",
      { id: 1, rules_applied: "some" },
      "rules_applied: must be one of all_matching_rules, first_matching_rule, no_rules",
    ],
    ["unknown top-level field", { id: 1, color: "red" }, "workflow: unknown key(s) 'color'"],
    [
      "bad extractor key",
      { id: 1, extractors_config: { "a b": { type: "blank", task_key: "T0" } } },
      "extractors_config.a b: keys are 1-64 letters",
    ],
    ["too long key", { id: 1, extractors_config: { ["k".repeat(65)]: { type: "blank", task_key: "T0" } } }, "keys are 1-64"],
    [
      "unknown extractor type",
      { id: 1, extractors_config: { q: { type: "magic" } } },
      "extractors_config.q.type: unknown extractor type 'magic'",
    ],
    [
      "unknown extractor field",
      { id: 1, extractors_config: { q: { type: "blank", task_key: "T0", colour: 1 } } },
      "extractors_config.q: unknown key(s) 'colour'",
    ],
    [
      "non-https extractor",
      { id: 1, extractors_config: { x: { type: "external", url: "http://x.example.org" } } },
      "extractors_config.x.url: must be an https: URL",
    ],
    ["unknown reducer type", withReducer({ type: "average" }), "reducers_config.c.type: unknown reducer type 'average'"],
    [
      "bad repeated_classifications",
      withReducer({ type: "count", filters: { repeated_classifications: "keep_some" } }),
      "reducers_config.c.filters.repeated_classifications: must be one of keep_first, keep_last, keep_all",
    ],
    [
      "bad training_behavior",
      withReducer({ type: "count", filters: { training_behavior: "x" } }),
      "reducers_config.c.filters.training_behavior: must be one of ignore_training, training_only, experiment_only",
    ],
    [
      "bad empty_extracts",
      withReducer({ type: "count", filters: { empty_extracts: "x" } }),
      "reducers_config.c.filters.empty_extracts: must be one of keep_all, ignore_empty",
    ],
    ["bad from", withReducer({ type: "count", filters: { from: 1.5 } }), "reducers_config.c.filters.from: must be an integer"],
    ["unknown filter", withReducer({ type: "count", filters: { limit: 3 } }), "reducers_config.c.filters: unknown key(s) 'limit'"],
    [
      "bad topic",
      withReducer({ type: "count", topic: "reduce_by_project" }),
      "reducers_config.c.topic: must be one of reduce_by_subject, reduce_by_user",
    ],
    [
      "bad mode",
      withReducer({ type: "count", reduction_mode: "fast" }),
      "reducers_config.c.reduction_mode: must be one of default_reduction, running_reduction",
    ],
    [
      "running where unsupported",
      withReducer({ type: "rectangle", reduction_mode: "running_reduction" }),
      "reducers_config.c.reduction_mode: reducer type 'rectangle' does not support running_reduction",
    ],
    [
      "running keep_last",
      withReducer({ type: "count", reduction_mode: "running_reduction", filters: { repeated_classifications: "keep_last" } }),
      "reducers_config.c.filters.repeated_classifications: keep_last cannot be used with running_reduction",
    ],
    [
      "running negative from",
      withReducer({ type: "count", reduction_mode: "running_reduction", filters: { from: -3 } }),
      "reducers_config.c.filters.from: a negative from cannot be used with running_reduction",
    ],
    [
      "running median",
      withReducer({ type: "summary_stats", summarize_field: "q.0", operations: ["median"], reduction_mode: "running_reduction" }),
      "reducers_config.c.operations: median cannot be computed in running_reduction",
    ],
    [
      "bad operation",
      withReducer({ type: "summary_stats", summarize_field: "q.0", operations: ["avg"] }),
      "reducers_config.c.operations[0]: must be one of count, min",
    ],
    ["unknown reducer field", withReducer({ type: "count", eps: 3 }), "reducers_config.c: unknown key(s) 'eps'"],
    [
      "non-https queue",
      withReducer({ type: "queue", queue_url: "ftp://q", queue_name: "x" }),
      "reducers_config.c.queue_url: must be an https: URL",
    ],
    [
      "non-https external reducer",
      withReducer({ type: "external", url: "http://r.example.org" }),
      "reducers_config.c.url: must be an https: URL",
    ],
    [
      "filters naming an unknown extractor",
      withReducer({ type: "count", filters: { extractor_keys: ["q", "zz"] } }),
      "reducers_config.c.filters.extractor_keys[1]: 'zz' is not a configured extractor",
    ],
    [
      "a single unknown extractor key",
      withReducer({ type: "count", filters: { extractor_keys: "zz" } }),
      "reducers_config.c.filters.extractor_keys: 'zz' is not a configured extractor",
    ],
    [
      "grouping by an unknown extractor",
      withReducer({ type: "count", grouping: { field_name: "f.name" } }),
      "reducers_config.c.grouping.field_name: 'f' is not a configured extractor",
    ],
    [
      "grouping field without a field",
      withReducer({ type: "count", grouping: { field_name: "q" } }),
      "reducers_config.c.grouping.field_name: must be '<extractor_key>.<field>'",
    ],
    [
      "bad grouping if_missing",
      withReducer({ type: "count", grouping: { field_name: "q.x", if_missing: "drop" } }),
      "reducers_config.c.grouping.if_missing: must be one of ignore, error, group_missing",
    ],
    [
      "summarize an unknown extractor",
      withReducer({ type: "summary_stats", summarize_field: "f.size" }),
      "reducers_config.c.summarize_field: 'f' is not a configured extractor",
    ],
    [
      "reserved reducer key",
      { ...base, reducers_config: { subject: { type: "count" } } },
      "reducers_config.subject: 'subject' is reserved",
    ],
    ["unknown operator", withRule({ if: ["gtx", ["const", 1], ["const", 2]], then: retire }), "rules_config[0].if: unknown operator 'gtx'"],
    [
      "nested unknown operator",
      withRule({ if: ["and", ["const", true], ["nope", 1]], then: retire }),
      "rules_config[0].if[2]: unknown operator 'nope'",
    ],
    ["malformed condition", withRule({ if: "c.num_votes > 3", then: retire }), "rules_config[0].if: expected a condition array"],
    [
      "bare literal operand",
      withRule({ if: ["gte", ["lookup", "c.num_votes", 0], 3], then: retire }),
      "rules_config[0].if[2]: expected a condition array",
    ],
    [
      "user rule reading a subject reducer",
      withRule({
        topic: "user",
        if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]],
        then: [{ action: "promote_user", workflow_id: 2 }],
      }),
      "rules_config[0].if[1][1]: lookup 'c.num_votes': reducer 'c' is reduce_by_subject; a user rule cannot read it",
    ],
    [
      "subject rule reading a user reducer",
      {
        ...base,
        reducers_config: { u: { type: "count", topic: "reduce_by_user" } },
        rules_config: [{ if: ["lookup", "u.extracts"], then: retire }],
      },
      "rules_config[0].if[1]: lookup 'u.extracts': reducer 'u' is reduce_by_user; a subject rule cannot read it",
    ],
    [
      "user rule reading subject metadata",
      withRule({ topic: "user", if: ["lookup", "subject.size"], then: [{ action: "promote_user", workflow_id: 2 }] }),
      "rules_config[0].if[1]: lookup 'subject.size': a user rule cannot read subject metadata",
    ],
    [
      "unknown effect",
      withRule({ if: ["const", true], then: [{ action: "delete_subject" }] }),
      "rules_config[0].then[0].action: unknown effect action 'delete_subject'",
    ],
    [
      "effect field",
      withRule({ if: ["const", true], then: [{ action: "retire_subject", reason: "tired" }] }),
      "rules_config[0].then[0].reason: must be one of blank, consensus",
    ],
    [
      "non-https effect",
      withRule({ if: ["const", true], then: [{ action: "external_effect", url: "http://e.example.org" }] }),
      "rules_config[0].then[0].url: must be an https: URL",
    ],
    [
      "user effect in a subject rule",
      withRule({ if: ["const", true], then: [{ action: "promote_user", workflow_id: 3 }] }),
      "rules_config[0].then[0].action: 'promote_user' is a user effect; it cannot be used in a subject rule",
    ],
    [
      "subject effect in a user rule",
      withRule({ topic: "user", if: ["const", true], then: retire }),
      "rules_config[0].then[0].action: 'retire_subject' is a subject effect; it cannot be used in a user rule",
    ],
    [
      "bad rule topic",
      withRule({ topic: "project", if: ["const", true], then: retire }),
      "rules_config[0].topic: must be one of subject, user",
    ],
    ["unknown rule field", withRule({ if: ["const", true], then: retire, else: [] }), "rules_config[0]: unknown key(s) 'else'"],
  ])("%s", (_n, input, message) => {
    expect(error(input)).toContain(message);
  });

  it("reports every problem, joined with '; '", () => {
    const message = error({ id: 1, status: "x", extractors_config: { q: { type: "nope" } } });
    expect(message.split("; ")).toHaveLength(2);
  });
});

describe("configuration warnings", () => {
  const valid = (input: object) => {
    const parsed = parseEngineWorkflowConfig(input);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value;
  };
  it.each([
    ["no rules", withReducer({ type: "count" }), []],
    ["a lookup of a configured reducer", withRule({ if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: retire }), []],
    [
      "a rule without effects (yet)",
      withRule({ if: ["const", true], then: [] }),
      ["rules_config[0].then: the rule has no effects, so it does nothing"],
    ],
    ["a rule without a then", withRule({ if: ["const", true] }), ["rules_config[0].then: the rule has no effects, so it does nothing"]],
    ["subject metadata", withRule({ if: ["gte", ["to_f", ["lookup", "subject.size", 0]], ["const", 3]], then: retire }), []],
    [
      "a lookup of a reducer that is not configured",
      withRule({ if: ["gte", ["lookup", "zz.num_votes", 0], ["const", 3]], then: retire }),
      ["rules_config[0].if[1][1]: lookup 'zz.num_votes': 'zz' is not a configured reducer, so it always yields its default"],
    ],
    [
      "one per lookup, nested",
      withRule({ if: ["and", ["lookup", "a.x"], ["not", ["lookup", "b.y", 1]]], then: retire }),
      [
        "rules_config[0].if[1][1]: lookup 'a.x': 'a' is not a configured reducer, so it always yields its default",
        "rules_config[0].if[2][1][1]: lookup 'b.y': 'b' is not a configured reducer, so it always yields its default",
      ],
    ],
  ])("%s", (_n, input, warnings) => {
    expect(configWarnings(valid(input))).toEqual(warnings);
  });
});
