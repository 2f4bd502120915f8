import { describe, expect, it } from "vitest";
import { type EngineDraft, type EngineDraftAction, engineDraft, engineDraftReducer, engineWire, freshKey } from "./engine-draft";

const stored = {
  status: "paused",
  rules_applied: "first_matching_rule",
  extractors_config: { q: { type: "question", task_key: "T0" } },
  reducers_config: { c: { type: "consensus" }, n: { type: "count", filters: { extractor_keys: ["q"] } } },
  rules_config: [{ if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] }],
};
const run = (actions: EngineDraftAction[], from: EngineDraft = engineDraft(stored)) => actions.reduce(engineDraftReducer, from);
const wire = (d: EngineDraft) => {
  const w = engineWire(7, d);
  if (!w.ok) throw new Error(w.message);
  return w.value;
};

describe("engineDraft", () => {
  it("reads a stored configuration, and a new one has nothing in it", () => {
    expect(wire(engineDraft(stored))).toEqual({ id: 7, ...stored, rules_config: [{ topic: "subject", ...stored.rules_config[0] }] });
    expect(engineDraft(stored).exists).toBe(true);
    expect(engineDraft(null)).toMatchObject({ exists: false, status: "active", rulesApplied: "all_matching_rules", extractors: [] });
  });
});

describe("engineDraftReducer", () => {
  const cases: { name: string; actions: EngineDraftAction[]; expect: (w: ReturnType<typeof wire>) => unknown; is: unknown }[] = [
    {
      name: "an extractor added reads the first task, under a key no other has",
      actions: [
        { type: "addExtractor", taskKey: { key: "T1", type: "single" } },
        { type: "addExtractor", taskKey: { key: "T1", type: "single" } },
      ],
      expect: (w) => Object.keys(w.extractors_config),
      is: ["q", "q2", "q3"],
    },
    {
      name: "a reducer added is a consensus",
      actions: [{ type: "addReducer" }],
      expect: (w) => w.reducers_config.c2,
      is: { type: "consensus" },
    },
    {
      name: "a rule added retires on consensus, looking up a reducer's count",
      actions: [{ type: "addRule" }],
      expect: (w) => w.rules_config[1],
      is: {
        topic: "subject",
        if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]],
        then: [{ action: "retire_subject", reason: "consensus" }],
      },
    },
    {
      name: "a row changed and one removed",
      actions: [
        { type: "setRow", list: "reducers", index: 1, row: { key: "m", config: { type: "count" } } },
        { type: "removeRow", list: "reducers", index: 0 },
      ],
      expect: (w) => w.reducers_config,
      is: { m: { type: "count" } },
    },
    {
      name: "a link from an extractor to a reducer names the extractor in its filters",
      actions: [{ type: "connect", link: { kind: "extractor-reducer", extractor: "q", reducer: "c" } }],
      expect: (w) => w.reducers_config.c,
      is: { type: "consensus", filters: { extractor_keys: ["q"] } },
    },
    {
      name: "a link from a reducer to a rule makes the rule's comparison look it up",
      actions: [{ type: "connect", link: { kind: "reducer-rule", reducer: "n", rule: 0 } }],
      expect: (w) => w.rules_config[0].if,
      is: ["gte", ["lookup", "n.classifications", 0], ["const", 3]],
    },
    {
      name: "a link removed from a rule drops its comparison (nothing left: always)",
      actions: [{ type: "disconnect", link: { kind: "reducer-rule", reducer: "c", rule: 0 } }],
      expect: (w) => w.rules_config[0].if,
      is: ["const", true],
    },
    {
      name: "a reducer's only extractor cannot be unlinked: nothing changes",
      actions: [{ type: "disconnect", link: { kind: "extractor-reducer", extractor: "q", reducer: "n" } }],
      expect: (w) => w.reducers_config.n,
      is: { type: "count", filters: { extractor_keys: ["q"] } },
    },
    {
      name: "nodes removed from the canvas: an extractor, a reducer, a rule",
      actions: [
        { type: "removeNode", id: "x:q" },
        { type: "removeNode", id: "r:n" },
        { type: "removeNode", id: "rule:0" },
        { type: "removeNode", id: "effect:0:0" },
      ],
      expect: (w) => [Object.keys(w.extractors_config), Object.keys(w.reducers_config), w.rules_config.length],
      is: [[], ["c"], 0],
    },
    {
      name: "status and how rules apply",
      actions: [
        { type: "status", status: "active" },
        { type: "rulesApplied", rulesApplied: "all_matching_rules" },
      ],
      expect: (w) => [w.status, w.rules_applied],
      is: ["active", "all_matching_rules"],
    },
    {
      name: "a rule's topic changed and its effects set",
      actions: [{ type: "setRule", index: 0, rule: { topic: "user", then: [] } }],
      expect: (w) => [w.rules_config[0].topic, w.rules_config[0].then],
      is: ["user", []],
    },
    {
      name: "load goes back to what is stored (discard)",
      actions: [{ type: "addReducer" }, { type: "removeRule", index: 0 }, { type: "load", stored }],
      expect: (w) => [Object.keys(w.reducers_config), w.rules_config.length],
      is: [["c", "n"], 1],
    },
  ];
  it.each(cases)("$name", ({ actions, expect: read, is }) => {
    expect(read(wire(run(actions)))).toEqual(is);
  });

  it("a condition that cannot be written yet is named instead of a configuration", () => {
    const d = run([{ type: "setRule", index: 0, rule: { condition: { kind: "json", text: "[not json" } } }]);
    expect(engineWire(7, d)).toMatchObject({ ok: false });
  });

  it("freshKey takes the base, then the first free number after it", () => {
    expect(freshKey([], "c")).toBe("c");
    expect(
      freshKey(
        [
          { key: "c", config: {} },
          { key: "c2", config: {} },
        ],
        "c",
      ),
    ).toBe("c3");
  });
});
