import { describe, expect, it } from "vitest";
import { trimSlashes, trimTrailingSlashes } from "./trim-slashes";

describe("trimming slashes", () => {
  it.each([
    ["https://example.org/", "https://example.org", "https://example.org"],
    ["https://example.org///", "https://example.org", "https://example.org"],
    ["/prefix/", "/prefix", "prefix"],
    ["//a//b//", "//a//b", "a//b"],
    ["///", "", ""],
    ["", "", ""],
    ["no-slashes", "no-slashes", "no-slashes"],
  ])("%j", (s, trailing, both) => {
    expect(trimTrailingSlashes(s)).toBe(trailing);
    expect(trimSlashes(s)).toBe(both);
  });

  it("takes linear time on a long run of slashes (the regular expression took seconds)", () => {
    const s = `${"/".repeat(200_000)}x${"/".repeat(200_000)}\0`;
    const t0 = performance.now();
    expect(trimSlashes(s)).toBe(s.slice(200_000));
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
