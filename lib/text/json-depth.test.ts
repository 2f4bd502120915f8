import { describe, expect, it } from "vitest";
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, parseBoundedJson } from "./json-depth";

const arrays = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const objects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

describe("jsonNestsDeeperThan", () => {
  it.each([
    ["arrays at the limit", arrays(MAX_JSON_DEPTH), false],
    ["arrays one past it", arrays(MAX_JSON_DEPTH + 1), true],
    ["objects at the limit", objects(MAX_JSON_DEPTH), false],
    ["objects one past it", objects(MAX_JSON_DEPTH + 1), true],
    ["brackets inside strings are text", JSON.stringify({ s: "[".repeat(5000) + "{".repeat(5000) }), false],
    ["escaped quotes do not end a string", JSON.stringify({ s: `\\"${"[".repeat(2000)}` }), false],
    ["depth after a string with brackets still counts", `[${JSON.stringify("]]]]")},${arrays(MAX_JSON_DEPTH)}]`, true],
    ["many shallow siblings", `[${Array(5000).fill("[[1]]").join(",")}]`, false],
    ["a million levels (no stack used)", arrays(1_000_000), true],
  ])("%s", (_name, text, deeper) => {
    expect(jsonNestsDeeperThan(text)).toBe(deeper);
  });

  it("takes another limit", () => {
    expect(jsonNestsDeeperThan(arrays(3), 2)).toBe(true);
    expect(jsonNestsDeeperThan(arrays(2), 2)).toBe(false);
  });
});

describe("parseBoundedJson", () => {
  it.each([
    ['{"a":[1,2,{"b":null}]}', { ok: true, value: { a: [1, 2, { b: null }] } }],
    ["{", { ok: false, reason: "malformed" }],
    ["", { ok: false, reason: "malformed" }],
    [arrays(MAX_JSON_DEPTH + 1), { ok: false, reason: "too_deep" }],
    [`${"[".repeat(100_000)}`, { ok: false, reason: "malformed" }],
  ])("%#", (text, outcome) => {
    expect(parseBoundedJson(text)).toEqual(outcome);
  });

  it("keeps a __proto__ key as data (JSON.parse makes it an own property)", () => {
    const parsed = parseBoundedJson('{"__proto__":{"polluted":true}}');
    expect(parsed.ok && Object.hasOwn(parsed.value as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
