import { describe, expect, it } from "vitest";
import { conditionSummary, engineFlow, flowConnection, reducerReading, reducerWithout, removableLink } from "./engine-flow";

describe("engineFlow", () => {
  it("links extractors to reducers, reducers to the rules that look them up, rules to their effects", () => {
    const flow = engineFlow({
      extractors_config: { q: { type: "question" }, s: { type: "survey" } },
      reducers_config: { c: { type: "consensus", filters: { extractor_keys: ["q"] } }, n: { type: "count" } },
      rules_config: [
        {
          if: ["and", ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], ["gte", ["lookup", "n.classifications", 0], ["const", 5]]],
          then: [{ action: "retire_subject", reason: "consensus" }],
        },
        {
          topic: "user",
          if: ["gte", ["lookup", "subject.size", 0], ["const", 1]],
          then: [{ action: "promote_user", workflow_id: "9" }, { action: "retire_subject" }],
        },
      ],
    });
    expect(flow.nodes.map((n) => [n.id, n.kind, n.row])).toEqual([
      ["x:q", "extractor", 0],
      ["x:s", "extractor", 1],
      ["r:c", "reducer", 0],
      ["r:n", "reducer", 1],
      ["rule:0", "rule", 0],
      ["effect:0:0", "effect", 0],
      ["rule:1", "rule", 1],
      ["effect:1:0", "effect", 1],
      ["effect:1:1", "effect", 2],
    ]);
    expect(flow.edges).toEqual([
      { from: "x:q", to: "r:c" },
      { from: "x:q", to: "r:n", implicit: true },
      { from: "x:s", to: "r:n", implicit: true },
      { from: "r:c", to: "rule:0" },
      { from: "r:n", to: "rule:0" },
      { from: "rule:0", to: "effect:0:0" },
      { from: "rule:1", to: "effect:1:0" },
      { from: "rule:1", to: "effect:1:1" },
    ]);
    expect(flow.nodes.find((n) => n.id === "rule:1")!.label).toBe("Rule 2 (volunteer): if subject.size ≥ 1");
    expect(flow.nodes.find((n) => n.id === "effect:0:0")!.label).toBe("retire_subject · reason: consensus");
  });

  it.each([
    [["gte", ["lookup", "c.num_votes", 0], ["const", 3]], "c.num_votes ≥ 3"],
    [["not", ["eq", ["lookup", "c.most_likely", ""], ["const", "0"]]], 'not(c.most_likely = "0")'],
    [["const", true], "true"],
    [[], "?"],
  ])("conditionSummary(%j) is %s", (cond, text) => expect(conditionSummary(cond)).toBe(text));

  it("draws nothing for an empty configuration", () => {
    expect(engineFlow({ extractors_config: {}, reducers_config: {}, rules_config: [] })).toEqual({ nodes: [], edges: [] });
  });
});

describe("linking on the canvas", () => {
  it.each([
    ["x:q", "r:c", { kind: "extractor-reducer", extractor: "q", reducer: "c" }],
    ["r:c", "rule:2", { kind: "reducer-rule", reducer: "c", rule: 2 }],
    ["x:q", "rule:0", null],
    ["r:c", "r:d", null],
    ["rule:0", "effect:0:0", null],
    ["r:c", "x:q", null],
  ])("%s → %s", (from, to, link) => expect(flowConnection(from, to)).toEqual(link));

  it.each([
    [{ type: "count" }, { type: "count", filters: { extractor_keys: ["q"] } }],
    [
      { type: "count", filters: { extractor_keys: ["s"], empty_extracts: "keep_all" } },
      { type: "count", filters: { extractor_keys: ["s", "q"], empty_extracts: "keep_all" } },
    ],
    [
      { type: "count", filters: { extractor_keys: "s" } },
      { type: "count", filters: { extractor_keys: ["s", "q"] } },
    ],
    [
      { type: "count", filters: { extractor_keys: ["q"] } },
      { type: "count", filters: { extractor_keys: ["q"] } },
    ],
  ])("a reducer %j reading q is %j", (reducer, out) => expect(reducerReading(reducer, "q")).toEqual(out));

  it("draws a reducer naming no extractors as reading them all, dashed", () => {
    const flow = engineFlow({
      extractors_config: { q: { type: "question" } },
      reducers_config: { c: { type: "count" }, d: { type: "count", filters: { extractor_keys: ["q"] } } },
      rules_config: [],
    });
    expect(flow.edges).toEqual([
      { from: "x:q", to: "r:c", implicit: true },
      { from: "x:q", to: "r:d" },
    ]);
  });
});

describe("reducerWithout (an extractor's link to a reducer removed on the canvas)", () => {
  it("unticks the extractor, keeping the other filters", () => {
    expect(reducerWithout({ type: "count", filters: { extractor_keys: ["a", "b"], from: 1 } }, "a", ["a", "b"])).toEqual({
      type: "count",
      filters: { extractor_keys: ["b"], from: 1 },
    });
  });
  it("a reducer reading every extractor now names the others", () => {
    expect(reducerWithout({ type: "count" }, "b", ["a", "b", "c"])).toEqual({ type: "count", filters: { extractor_keys: ["a", "c"] } });
  });
  it("is null when it would read no extractor (naming none reads all) or did not read it", () => {
    expect(reducerWithout({ type: "count", filters: { extractor_keys: ["a"] } }, "a", ["a", "b"])).toBeNull();
    expect(reducerWithout({ type: "count", filters: { extractor_keys: ["a", "gone"] } }, "a", ["a", "b"])).toBeNull();
    expect(reducerWithout({ type: "count" }, "a", ["a"])).toBeNull();
    expect(reducerWithout({ type: "count", filters: { extractor_keys: ["a", "b"] } }, "c", ["a", "b", "c"])).toBeNull();
  });
});

describe("removableLink", () => {
  const config = {
    extractors_config: { a: { type: "question" }, b: { type: "question" } },
    reducers_config: { c: { type: "consensus", filters: { extractor_keys: ["a"] } }, n: { type: "count" } },
    rules_config: [
      { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject" }] },
      { if: ["gte", ["sum", ["lookup", "n.classifications", 0], ["const", 1]], ["const", 3]], then: [{ action: "retire_subject" }] },
    ],
  };
  it.each([
    ["x:a", "r:n", { kind: "extractor-reducer", extractor: "a", reducer: "n" }],
    ["x:a", "r:c", null],
    ["r:c", "rule:0", { kind: "reducer-rule", reducer: "c", rule: 0 }],
    ["r:n", "rule:1", null],
    ["rule:0", "effect:0:0", null],
  ])("%s → %s", (from, to, link) => {
    expect(removableLink(config, from, to)).toEqual(link);
  });
});
