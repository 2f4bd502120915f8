import { describe, expect, it } from "vitest";
import { conditionSummary, engineFlow } from "./engine-flow";

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
      { from: "x:q", to: "r:n" },
      { from: "x:s", to: "r:n" },
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
