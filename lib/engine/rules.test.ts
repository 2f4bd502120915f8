import { describe, expect, it } from "vitest";
import type { ConditionContext } from "./conditions";
import { evaluateRules, ZRules } from "./rules";

const rules = ZRules.parse([
  { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] },
  { topic: "user", if: ["gte", ["lookup", "u.classifications", 0], ["const", 2]], then: [{ action: "promote_user", workflow_id: "13" }] },
  { if: ["eq", ["lookup", "c.most_likely"], ["const", "1"]], then: [{ action: "add_subject_to_set", subject_set_id: 5 }] },
  { if: ["const", false], then: [{ action: "retire_subject" }] },
  { topic: "user", if: ["const", true], then: [{ action: "promote_user", workflow_id: 14 }] },
]);
const ctx: ConditionContext = { reductions: { c: { most_likely: "1", num_votes: 3 }, u: { classifications: 5 } } };
const fired = (mode: Parameters<typeof evaluateRules>[1], topic: "subject" | "user", c = ctx) =>
  evaluateRules(rules, mode, topic, c).map((f) => f.ruleIndex);

describe("evaluateRules", () => {
  it.each([
    ["all_matching_rules", "subject", [0, 2]],
    ["all_matching_rules", "user", [1, 4]],
    ["first_matching_rule", "subject", [0]],
    ["first_matching_rule", "user", [1]],
    ["no_rules", "subject", []],
    ["no_rules", "user", []],
    [undefined, "subject", [0, 2]],
  ] as const)("%s, %s rules → %j", (mode, topic, expected) => {
    expect(fired(mode, topic)).toEqual(expected);
  });
  it("first_matching_rule skips rules whose condition is false", () => {
    expect(
      fired("first_matching_rule", "subject", { reductions: { c: { most_likely: "1", num_votes: 1 }, u: { classifications: 0 } } }),
    ).toEqual([2]);
    expect(fired("first_matching_rule", "user", { reductions: { c: {}, u: { classifications: 0 } } })).toEqual([4]);
  });
  it("returns the effects, normalised", () => {
    expect(evaluateRules(rules, "all_matching_rules", "subject", ctx)).toEqual([
      { ruleIndex: 0, effects: [{ action: "retire_subject", reason: "consensus" }] },
      { ruleIndex: 2, effects: [{ action: "add_subject_to_set", subject_set_id: "5" }] },
    ]);
  });
  it("rules without a topic (as stored before defaults) are subject rules", () => {
    expect(evaluateRules([{ if: ["const", true], then: [] }], "all_matching_rules", "subject", ctx)).toHaveLength(1);
    expect(evaluateRules([{ if: ["const", true], then: [] }], "all_matching_rules", "user", ctx)).toHaveLength(0);
  });
  it("a condition that is 0 is true (only null and false are false)", () => {
    expect(
      evaluateRules([{ if: ["lookup", "c.zero"], then: [] }], "all_matching_rules", "subject", { reductions: { c: { zero: 0 } } }),
    ).toHaveLength(1);
    expect(
      evaluateRules([{ if: ["lookup", "c.none"], then: [] }], "all_matching_rules", "subject", { reductions: { c: { zero: 0 } } }),
    ).toHaveLength(0);
  });
});
