import { describe, expect, it } from "vitest";
import { addPeriods, fillPeriods, MAX_PERIODS, periodStart } from "./fill-periods";

const today = new Date("2026-11-27T15:00:00Z"); // a Friday
const b = (day: string, count: number) => ({ period: `${day}T00:00:00.000Z`, count });

describe("periodStart and addPeriods", () => {
  it.each([
    ["day", "2026-11-27", "2026-11-26"],
    ["week", "2026-11-23", "2026-11-16"], // Mondays
    ["month", "2026-11-01", "2026-10-01"],
    ["year", "2026-01-01", "2025-01-01"],
  ])("%s", (period, start, previous) => {
    expect(periodStart(today, period).toISOString().slice(0, 10)).toBe(start);
    expect(addPeriods(periodStart(today, period), period, -1).toISOString().slice(0, 10)).toBe(previous);
  });
  it("keeps a month's start across a year's end", () => {
    expect(addPeriods(new Date("2026-12-01T00:00:00Z"), "month", 1).toISOString().slice(0, 10)).toBe("2027-01-01");
  });
});

describe("fillPeriods", () => {
  it.each([
    ["no data: the last 30 days, all 0", [], "day", {}, 30, "2026-10-29", "2026-11-27", 0],
    ["one day of data: one bar of thirty", [b("2026-11-27", 5)], "day", {}, 30, "2026-10-29", "2026-11-27", 5],
    ["data older than the span widens it", [b("2026-10-01", 2)], "day", {}, 58, "2026-10-01", "2026-11-27", 2],
    ["weeks: 12 Mondays", [b("2026-11-23", 1)], "week", {}, 12, "2026-09-07", "2026-11-23", 1],
    ["months: 12", [b("2026-03-01", 4), b("2026-11-01", 1)], "month", {}, 12, "2025-12-01", "2026-11-01", 5],
    ["years: 5", [], "year", {}, 5, "2022-01-01", "2026-01-01", 0],
    ["a chosen range", [b("2001-06-01", 3)], "month", { start: "2001-01-01", end: "2001-12-31" }, 12, "2001-01-01", "2001-12-01", 3],
    ["a range with only an end", [], "day", { end: "2001-01-31" }, 30, "2001-01-02", "2001-01-31", 0],
    ["a range with only a start", [], "day", { start: "2026-11-20" }, 8, "2026-11-20", "2026-11-27", 0],
    ["a bad date is no range", [], "day", { start: "20x1-01-01" }, 30, "2026-10-29", "2026-11-27", 0],
    ["an unknown period is a month", [], "fortnight", {}, 12, "2025-12-01", "2026-11-01", 0],
  ])("%s", (_what, data, period, range, length, first, last, total) => {
    const filled = fillPeriods(data, period, { ...range, today });
    expect(filled).toHaveLength(length);
    expect(filled[0].period.slice(0, 10)).toBe(first);
    expect(filled.at(-1)!.period.slice(0, 10)).toBe(last);
    expect(filled.reduce((n, d) => n + d.count, 0)).toBe(total);
  });

  it("puts each count on its own period and zeros between", () => {
    expect(fillPeriods([b("2026-11-25", 2), b("2026-11-27", 3)], "day", { today, span: 4 })).toEqual([
      b("2026-11-24", 0),
      b("2026-11-25", 2),
      b("2026-11-26", 0),
      b("2026-11-27", 3),
    ]);
  });

  it("keeps to the data's periods past the limit", () => {
    const data = [b("2000-01-01", 1), b("2026-11-27", 1)];
    expect(fillPeriods(data, "day", { today })).toEqual(data);
    expect(fillPeriods([], "day", { today, span: MAX_PERIODS + 1 })).toEqual([]);
  });
});
