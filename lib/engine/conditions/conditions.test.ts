import { describe, expect, it } from "vitest";
import { formatIssues } from "../validation";
import { conditionLookups, conditionProblems, ZCondition } from "./schema";
import { evaluate, type ConditionContext } from "./evaluate";

const ctx: ConditionContext = {
  reductions: {
    c: {
      most_likely: "1",
      num_votes: 3,
      agreement: 0.75,
      zero: 0,
      no: false,
      empty: "",
      nothing: null,
      nested: { deep: { value: 7 } },
      "dotted.key": 5,
      list: [1, 2],
    },
    s: { ZEBRA: 2 },
  },
  subject: { size: "5", name: "Alpha", "#training_subject": "true", "a.b": "dotted", weight: "2.5kg" },
};
const ev = (cond: unknown) => evaluate(cond, ctx);
const k = (v: unknown) => ["const", v];

describe("comparisons (chained)", () => {
  it.each([
    [["lt", k(1), k(2)], true],
    [["lt", k(2), k(2)], false],
    [["lte", k(2), k(2)], true],
    [["gt", k(3), k(2)], true],
    [["gte", k(2), k(3)], false],
    [["lt", k(1), k(2), k(3)], true],
    [["lt", k(1), k(3), k(2)], false],
    [["lte", k(1), k(1), k(2)], true],
    [["gt", k(3), k(2), k(1)], true],
    [["gte", k(3), k(3), k(4)], false],
    [["lt", k("a"), k("b")], true],
    [["gt", k("b"), k("a"), k("A")], true],
    [["gte", ["lookup", "c.num_votes", 0], k(3)], true],
    [["gte", ["lookup", "s.ZEBRA", 0], k(3)], false],
  ])("%j → %s", (cond, expected) => expect(ev(cond)).toBe(expected));

  it.each([
    ["string metadata vs number is never coerced", ["gt", ["lookup", "subject.size", 0], k(3)], false],
    ["… nor the other way", ["lt", k(3), ["lookup", "subject.size", 0]], false],
    ["to_f makes it numeric", ["gt", ["to_f", ["lookup", "subject.size", 0]], k(3)], true],
    ["to_f compares numerically, not as text", ["gt", ["to_f", k("10")], ["to_f", k("9")]], true],
    ["text comparison of the same strings differs", ["gt", k("10"), k("9")], false],
    ["null is not ordered", ["lt", k(null), k(1)], false],
    ["booleans are not ordered", ["lt", k(false), k(true)], false],
  ])("%s", (_n, cond, expected) => expect(ev(cond)).toBe(expected));
});

describe("eq (no coercion, deep)", () => {
  it.each([
    [["eq", k(1), k(1)], true],
    [["eq", k(1), k("1")], false],
    [["eq", k(0), k(false)], false],
    [["eq", k(null), k(0)], false],
    [["eq", k(""), k(false)], false],
    [["eq", k(1), k(1), k(1)], true],
    [["eq", k(1), k(1), k(2)], false],
    [["eq", k([1, 2]), k([1, 2])], true],
    [["eq", k([1, 2]), k([2, 1])], false],
    [["eq", k({ a: 1, b: [2] }), k({ b: [2], a: 1 })], true],
    [["eq", k({ a: 1 }), k({ a: 1, b: 2 })], false],
    [["eq", ["lookup", "c.list"], k([1, 2])], true],
    [["eq", ["lookup", "c.most_likely"], k("1")], true],
    [["eq", ["lookup", "c.most_likely"], k(1)], false],
  ])("%j → %s", (cond, expected) => expect(ev(cond)).toBe(expected));
});

describe("const and lookup", () => {
  it.each([
    [k(42), 42],
    [k("x"), "x"],
    [k(null), null],
    [k({ a: 1 }), { a: 1 }],
    [["lookup", "c.num_votes", 0], 3],
    [["lookup", "c.zero", 99], 0],
    [["lookup", "c.no", 99], false],
    [["lookup", "c.empty", 99], ""],
    [["lookup", "c.nothing", 99], 99],
    [["lookup", "c.absent", 99], 99],
    [["lookup", "zz.num_votes", 99], 99],
    [["lookup", "c.absent"], null],
    [["lookup", "c.nested.deep.value", 0], 7],
    [["lookup", "c.nested.deep.none", 0], 0],
    [["lookup", "c.dotted.key", 0], 5],
    [["lookup", "subject.size", 0], "5"],
    [["lookup", "subject.#training_subject", "false"], "true"],
    [["lookup", "subject.a.b"], "dotted"],
    [["lookup", "subject.absent", "fallback"], "fallback"],
  ])("%j → %j", (cond, expected) => expect(ev(cond)).toEqual(expected));

  it("lookup of subject metadata without a subject gives the fallback", () => {
    expect(evaluate(["lookup", "subject.size", "none"], { reductions: {} })).toBe("none");
  });
  it("a reduction that is null gives the fallback", () => {
    expect(evaluate(["lookup", "c.x", 1], { reductions: { c: null } })).toBe(1);
  });
});

describe("logic (only null and false are false)", () => {
  it.each([
    [["not", k(true)], false],
    [["not", k(false)], true],
    [["not", k(null)], true],
    [["not", k(0)], false],
    [["not", k("")], false],
    [["and", k(true), k(1)], true],
    [["and", k(true), k(false)], false],
    [["and", k(true)], true],
    [["or", k(false), k(null)], false],
    [["or", k(false), k(0)], true],
    [["or", ["lookup", "c.absent"], ["eq", k(1), k(1)]], true],
    [["and", ["gte", ["lookup", "c.num_votes", 0], k(3)], ["gt", ["lookup", "c.agreement", 0], k(0.5)]], true],
    [["not", ["and", ["lookup", "c.no", true], k(true)]], true],
  ])("%j → %s", (cond, expected) => expect(ev(cond)).toBe(expected));
});

describe("conversions", () => {
  it.each([
    [["to_f", k("5")], 5],
    [["to_f", k(" 2.5 ")], 2.5],
    [["to_f", k("-1e3")], -1000],
    [["to_f", k(3)], 3],
    [["to_f", k("2.5kg")], null],
    [["to_f", k("")], null],
    [["to_f", k(null)], null],
    [["to_f", k(true)], null],
    [["to_i", k("5.7")], 5],
    [["to_i", k("-2.5")], -2],
    [["to_i", k(9.99)], 9],
    [["to_i", k("x")], null],
    [["upcase", k("Zebra")], "ZEBRA"],
    [["downcase", ["lookup", "subject.name"]], "alpha"],
    [["upcase", k(5)], 5],
    [["downcase", k(null)], null],
  ])("%j → %j", (cond, expected) => expect(ev(cond)).toEqual(expected));
});

describe("arithmetic (left fold; null on bad operands or division by zero)", () => {
  it.each([
    [["+", k(1), k(2)], 3],
    [["+", k(1), k(2), k(3)], 6],
    [["-", k(10), k(3), k(2)], 5],
    [["*", k(2), k(3), k(4)], 24],
    [["/", k(7), k(2)], 3.5],
    [["/", k(24), k(2), k(3)], 4],
    [["%", k(7), k(3)], 1],
    [["%", k(-7), k(3)], 2],
    [["%", k(7), k(-3)], -2],
    [["/", k(1), k(0)], null],
    [["%", k(1), k(0)], null],
    [["+", k(1), k("2")], null],
    [["+", k(1), k(null)], null],
    [["+", ["to_f", ["lookup", "subject.size", 0]], k(1)], 6],
    [["*", ["lookup", "c.agreement", 0], k(100)], 75],
    [["gte", ["/", ["lookup", "c.num_votes", 0], ["lookup", "s.ZEBRA", 1]], k(1.5)], true],
  ])("%j → %j", (cond, expected) => expect(ev(cond)).toEqual(expected));
});

describe("validation", () => {
  const message = (cond: unknown) => {
    const r = ZCondition.safeParse(cond);
    return r.success ? "ok" : formatIssues(r.error.issues, "if");
  };
  it.each([
    [["gte", ["lookup", "c.num_votes", 0], ["const", 3]], "ok"],
    [["and", ["not", ["eq", ["const", 1], ["const", 1]]], ["or", ["const", true]]], "ok"],
    [["const", null], "ok"],
    [["lookup", "subject.size"], "ok"],
    [["gtx", ["const", 1], ["const", 2]], "if: unknown operator 'gtx'"],
    [["and", ["const", 1], ["lol"]], "[2]: unknown operator 'lol'"],
    [["gte", ["const", 1]], "if: 'gte' takes at least 2 arguments, got 1"],
    [["not", ["const", 1], ["const", 2]], "'not' takes exactly 1 argument, got 2"],
    [["const"], "'const' takes exactly 1 argument, got 0"],
    [["lookup", "c.x", 0, 1], "'lookup' takes 1 to 2 arguments"],
    [["lookup", "novalue"], "[1]: lookup key must be"],
    [["lookup", 5], "[1]: lookup key must be"],
    [["gte", 3, ["const", 1]], "[1]: expected a condition array"],
    [["+", ["const", 1], "x"], "[2]: expected a condition array"],
    [[], "expected a condition array"],
    ["gte", "expected a condition array"],
    [[5, ["const", 1]], "[0]: operator must be a string"],
  ])("%j → %s", (cond, expected) => expect(message(cond)).toContain(expected));

  it("reports the path of a deep problem", () => {
    expect(conditionProblems(["and", ["or", ["const", 1], ["bad"]]])).toEqual([{ path: [1, 2], message: "unknown operator 'bad'" }]);
  });
  it("refuses too deep nesting", () => {
    let cond: unknown = ["const", 1];
    for (let i = 0; i < 40; i++) cond = ["not", cond];
    expect(message(cond)).toContain("nest at most");
  });
  it("lists lookups with their paths", () => {
    expect(conditionLookups(["and", ["lookup", "c.a", 0], ["gt", ["lookup", "subject.size"], ["const", ["lookup", "not.real"]]]])).toEqual([
      { path: [1, 1], key: "c.a", source: "c", field: "a" },
      { path: [2, 1, 1], key: "subject.size", source: "subject", field: "size" },
    ]);
  });
});
