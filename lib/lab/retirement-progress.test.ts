import { describe, expect, it } from "vitest";
import { engineCount, retireTarget, retireTargetText, votesToRetireText } from "./retirement-progress";

const retire = [{ action: "retire_subject", reason: "consensus" }];
const votes = ["lookup", "c.num_votes", 0];

describe("retireTarget", () => {
  it.each([
    ["a rule retiring at votes >= 2", [{ if: ["gte", votes, ["const", 2]], then: retire }], 15, { source: "engine", count: 2 }],
    ["votes > 2 retires at 3", [{ if: ["gt", votes, ["const", 2]], then: retire }], 15, { source: "engine", count: 3 }],
    ["2 <= votes, written the other way round", [{ if: ["lte", ["const", 2], votes], then: retire }], 15, { source: "engine", count: 2 }],
    ["2 < votes", [{ if: ["lt", ["const", 2], votes], then: retire }], 15, { source: "engine", count: 3 }],
    ["votes == 4", [{ if: ["eq", votes, ["const", 4]], then: retire }], 15, { source: "engine", count: 4 }],
    [
      "a share (agreement >= 0.8): the workflow's count",
      [{ if: ["gte", ["lookup", "c.agreement"], ["const", 0.8]], then: retire }],
      3,
      { source: "workflow", count: 3 },
    ],
    [
      "a rule that does not retire",
      [{ if: ["gte", votes, ["const", 2]], then: [{ action: "add_subject_to_set", subject_set_id: 1 }] }],
      5,
      { source: "workflow", count: 5 },
    ],
    ["a user rule", [{ topic: "user", if: ["gte", votes, ["const", 2]], then: retire }], 5, { source: "workflow", count: 5 }],
    [
      "subject metadata is no count",
      [{ if: ["gte", ["lookup", "subject.n", 0], ["const", 2]], then: retire }],
      5,
      { source: "workflow", count: 5 },
    ],
    [
      "several conditions joined",
      [{ if: ["and", ["gte", votes, ["const", 2]], ["const", true]], then: retire }],
      5,
      { source: "workflow", count: 5 },
    ],
    ["votes >= 0 retires at nothing", [{ if: ["gte", votes, ["const", 0]], then: retire }], 5, { source: "workflow", count: 5 }],
    ["no rules, never_retire", [], null, null],
    ["not rules at all", "nonsense", 7, { source: "workflow", count: 7 }],
  ])("%s", (_what, rules, limit, expected) => {
    const got = retireTarget({ rules_config: rules }, limit);
    if (expected === null) expect(got).toBeNull();
    else expect(got).toMatchObject(expected);
  });

  it("skips the rules when the engine applies none", () => {
    expect(retireTarget({ rules_applied: "no_rules", rules_config: [{ if: ["gte", votes, ["const", 2]], then: retire }] }, 9)).toEqual({
      source: "workflow",
      count: 9,
    });
  });

  it("takes the first retiring rule", () => {
    const rules = [
      { if: ["gte", ["lookup", "c.agreement"], ["const", 0.5]], then: retire },
      { if: ["gte", ["lookup", "s.total", 0], ["const", 6]], then: retire },
      { if: ["gte", votes, ["const", 2]], then: retire },
    ];
    expect(retireTarget({ rules_config: rules }, 15)).toEqual({ source: "engine", reducerKey: "s", field: "total", fallback: 0, count: 6 });
  });
});

describe("engineCount", () => {
  const target = { source: "engine" as const, reducerKey: "c", field: "num_votes", count: 3, fallback: 0 };
  it.each([
    ["the default subgroup's field", [{ reducer_key: "c", subgroup: "_default", data: { num_votes: 2 } }], target, 2],
    ["another reducer's is not counted", [{ reducer_key: "s", data: { num_votes: 2 } }], target, 0],
    ["a missing field is the lookup's default", [{ reducer_key: "c", data: {} }], { ...target, fallback: 1 }, 1],
    ["a subgroup by name", [{ reducer_key: "c", subgroup: "zebra", data: { num_votes: 4 } }], { ...target, field: "zebra.num_votes" }, 4],
    ["not a number", [{ reducer_key: "c", data: { num_votes: "2" } }], target, 0],
    ["an inherited name is no field", [{ reducer_key: "c", data: {} }], { ...target, field: "constructor" }, 0],
  ])("%s", (_what, reductions, t, expected) => {
    expect(engineCount(t, reductions)).toBe(expected);
  });
});

describe("votesToRetireText", () => {
  it.each([
    [0, 3, "0 of 3 votes to retire"],
    [2, 3, "2 of 3 votes to retire"],
    [5, 3, "3 of 3 votes to retire"],
    [0, 1, "0 of 1 vote to retire"],
    [-1, 2, "0 of 2 votes to retire"],
  ])("%i of %i", (current, target, text) => {
    expect(votesToRetireText(current, target)).toBe(text);
  });

  it("says where the target comes from", () => {
    expect(retireTargetText(null)).toMatch(/never retires/);
    expect(retireTargetText({ source: "workflow", count: 1 })).toBe(
      "A subject retires after 1 classification (the workflow's retirement criteria).",
    );
    expect(retireTargetText({ source: "engine", reducerKey: "c", field: "num_votes", count: 2, fallback: 0 })).toMatch(
      /^A subject retires at 2 \(c\.num_votes/,
    );
  });
});
