import { describe, expect, it } from "vitest";
import { JsonPathError, parseJsonPath, queryJsonPath } from "./jsonpath";

const doc = { a: { b: [{ c: 1 }, { c: 2 }, { d: 3 }], "odd key": "x", n: null }, list: [10, 20, 30] };

describe("queryJsonPath", () => {
  it.each([
    ["$", [doc]],
    ["$.a['odd key']", ["x"]],
    ['$.a["odd key"]', ["x"]],
    ["$.a.b[0].c", [1]],
    ["$.a.b[*].c", [1, 2]],
    ["$.a.b.*.d", [3]],
    ["$.list[-1]", [30]],
    ["$.list[5]", []],
    ["$.a.missing", []],
    ["$.a.n", [null]],
    ["$.list.x", []],
    ["$.a.b[0]['c']", [1]],
  ])("%s → %j", (path, expected) => {
    expect(queryJsonPath(doc, path)).toEqual(expected);
  });
});

describe("parseJsonPath", () => {
  it.each(["a.b", "$..a", "$.a[?(@.c)]", "$.a[1:2]", "$.", "$a"])("refuses %s", (path) => {
    expect(() => parseJsonPath(path)).toThrow(JsonPathError);
  });
});
