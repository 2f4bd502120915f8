import { describe, expect, it } from "vitest";
import { isScalarText, scalarText } from "./scalar-text";

describe("scalarText", () => {
  it.each([
    ["1.2", "1.2"],
    [3, "3"],
    [true, "true"],
    [10n, "10"],
    [Number.NaN, ""],
    [Infinity, ""],
    [null, ""],
    [undefined, ""],
    [["1"], ""],
    [{ toString: "x", valueOf: "y" }, ""],
    [{ toString: () => "called" }, ""],
  ])("%o → %j, never calling the value's own conversions", (value, text) => {
    expect(scalarText(value)).toBe(text);
  });

  it("tells strings and finite numbers from the rest", () => {
    expect([["a"], "a", 1, Number.NaN, null, { toString: "x" }].map(isScalarText)).toEqual([false, true, true, false, false, false]);
  });
});
