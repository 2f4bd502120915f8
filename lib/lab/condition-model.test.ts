import { describe, expect, it } from "vitest";
import { parseEngineWorkflowConfig } from "@/lib/engine/config";
import {
  conditionFromWire,
  conditionLookingUp,
  conditionToWire,
  conditionWithout,
  ConditionModelError,
  defaultLookup,
  lookupSuggestions,
  newComparison,
  type ConditionNode,
} from "./condition-model";

describe("conditions between the builder and the wire", () => {
  it.each([
    { name: "a comparison with a lookup default", wire: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]] },
    { name: "a lookup without a default", wire: ["eq", ["lookup", "c.most_likely"], ["const", "zebra"]] },
    { name: "a boolean constant", wire: ["eq", ["lookup", "f.flagged", false], ["const", true]] },
    {
      name: "and / or / not nesting",
      wire: [
        "and",
        ["gt", ["lookup", "c.agreement", 0], ["const", 0.5]],
        ["or", ["not", ["lt", ["lookup", "n.classifications", 0], ["const", 4]]], ["const", true]],
      ],
    },
    { name: "always", wire: ["const", true] },
    { name: "arithmetic stays JSON", wire: ["gt", ["+", ["lookup", "a.x", 0], ["lookup", "b.y", 0]], ["const", 3]] },
    { name: "unary operators stay JSON", wire: ["upcase", ["lookup", "c.most_likely", ""]] },
    { name: "a const false stays JSON", wire: ["const", false] },
  ])("round-trips $name", ({ wire }) => {
    expect(conditionToWire(conditionFromWire(wire))).toEqual(wire);
  });

  it.each([
    { wire: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], kind: "compare" },
    { wire: ["and", ["const", true]], kind: "and" },
    { wire: ["not", ["const", true]], kind: "not" },
    { wire: ["const", true], kind: "always" },
    { wire: ["gte", ["+", 1, 2], ["const", 3]], kind: "json" },
    { wire: "nonsense", kind: "json" },
  ])("shows $wire as a $kind block", ({ wire, kind }) => {
    expect(conditionFromWire(wire).kind).toBe(kind);
  });

  it("types constants as the builder says", () => {
    const node: ConditionNode = {
      kind: "compare",
      op: "eq",
      left: { kind: "lookup", key: "c.most_likely", fallback: "", fallbackType: "text" },
      right: { kind: "const", value: "3", type: "text" },
    };
    expect(conditionToWire(node)).toEqual(["eq", ["lookup", "c.most_likely"], ["const", "3"]]);
    expect(() => conditionToWire({ ...node, right: { kind: "const", value: "three", type: "number" } })).toThrow(ConditionModelError);
    expect(() => conditionToWire({ kind: "json", text: "[oops" })).toThrow(/not valid JSON/);
  });

  it("a new comparison is a condition the engine accepts", () => {
    const parsed = parseEngineWorkflowConfig({
      id: 1,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "consensus" } },
      rules_config: [{ if: conditionToWire(newComparison()), then: [{ action: "retire_subject" }] }],
    });
    expect(parsed.ok).toBe(true);
  });

  it("suggests the lookups a rule of each topic can read", () => {
    const reducers = { c: { type: "consensus" }, u: { type: "count", topic: "reduce_by_user" } };
    expect(lookupSuggestions(reducers, "subject")).toEqual(["c.most_likely", "c.num_votes", "c.agreement", "subject.#priority"]);
    expect(lookupSuggestions(reducers, "user")).toEqual(["u.classifications", "u.extracts"]);
    expect(defaultLookup(lookupSuggestions(reducers, "subject"))).toBe("c.num_votes");
    expect(defaultLookup(["x.mean", "subject.#priority"])).toBe("x.mean");
    expect(defaultLookup([])).toBeUndefined();
  });
});

describe("conditionLookingUp (a reducer linked to a rule on the canvas)", () => {
  const cmp = (key: string, op: "gte" | "eq" = "gte", value = "3"): ConditionNode => ({
    kind: "compare",
    op,
    left: { kind: "lookup", key, fallback: "0", fallbackType: "number" },
    right: { kind: "const", value, type: "number" },
  });
  it.each<[string, ConditionNode, unknown[]]>([
    ["always becomes a comparison of it", { kind: "always" }, ["gte", ["lookup", "n.classifications", 0], ["const", 3]]],
    [
      "a comparison of another reducer now looks it up, keeping its operator and value",
      cmp("c.num_votes", "eq", "5"),
      ["eq", ["lookup", "n.classifications", 0], ["const", 5]],
    ],
    ["a comparison of it is unchanged", cmp("n.extracts"), ["gte", ["lookup", "n.extracts", 0], ["const", 3]]],
    [
      "and gains a comparison of it",
      { kind: "and", children: [cmp("c.num_votes")] },
      ["and", ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], ["gte", ["lookup", "n.classifications", 0], ["const", 3]]],
    ],
    [
      "not is joined with one by and",
      { kind: "not", child: cmp("c.num_votes") },
      ["and", ["not", ["gte", ["lookup", "c.num_votes", 0], ["const", 3]]], ["gte", ["lookup", "n.classifications", 0], ["const", 3]]],
    ],
  ])("%s", (_what, node, wire) => {
    expect(conditionToWire(conditionLookingUp(node, "n.classifications"))).toEqual(wire);
  });
});

describe("conditionWithout (a reducer's link to a rule removed on the canvas)", () => {
  const wire = (v: unknown[]) => conditionFromWire(v);
  const c = ["gte", ["lookup", "c.num_votes", 0], ["const", 3]];
  const n = ["gte", ["lookup", "n.classifications", 0], ["const", 3]];
  const s = ["eq", ["lookup", "subject.#priority", 0], ["const", 1]];
  it.each<[string, unknown[], unknown[]]>([
    ["a comparison of it becomes always", c, ["const", true]],
    ["its comparisons leave an and, the others stay", ["and", c, n, ["lte", ["lookup", "c.agreement", 0], ["const", 1]]], ["and", n]],
    ["nested: a not of it goes with it; an or keeps the rest", ["or", s, ["not", c], ["and", c, n]], ["or", s, ["and", n]]],
    ["an and of nothing else becomes always", ["and", c, ["not", c]], ["const", true]],
  ])("%s", (_what, before, after) => {
    const dropped = conditionWithout(wire(before), "c");
    expect(dropped && conditionToWire(dropped)).toEqual(after);
  });
  it("is null when the blocks do not look the reducer up (not at all, or only in JSON)", () => {
    expect(conditionWithout(wire(n), "c")).toBeNull();
    expect(conditionWithout(wire(["and", ["gte", ["sum", ["lookup", "c.num_votes", 0], ["const", 1]], ["const", 3]]]), "c")).toBeNull();
  });
});
