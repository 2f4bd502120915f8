import { describe, expect, it } from "vitest";
import { formatDay, formatMoment, formatNumber } from "./format";

describe("format", () => {
  it.each([
    [0, "0"],
    [1234, "1,234"],
    [1234567.5, "1,234,567.5"],
  ])("formatNumber(%s) is %s", (n, text) => expect(formatNumber(n)).toBe(text));

  it.each([
    ["2026-03-03T23:30:00Z", "day", "3 Mar 2026"],
    ["2026-03-01T00:00:00Z", "month", "Mar 2026"],
    ["2026-01-01T00:00:00Z", "year", "2026"],
    ["2026-03-03T23:30:00Z", "day-month", "3 Mar"],
  ] as const)("formatDay(%s, %s) is %s, the UTC day", (iso, parts, text) => expect(formatDay(iso, parts)).toBe(text));

  it("formatMoment writes a date and a time, and a dash for none", () => {
    expect(formatMoment("2026-03-03T12:00:00Z")).toMatch(/^\d{1,2} Mar 2026, \d{2}:\d{2}$/);
    expect(formatMoment(null)).toBe("—");
  });
});
