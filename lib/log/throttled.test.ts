import { describe, expect, it } from "vitest";
import { throttledLog } from "./throttled";

describe("throttledLog", () => {
  // Each row: calls as [time ms, kind, message]; the lines written.
  const cases: { name: string; calls: [number, string, string][]; lines: string[] }[] = [
    { name: "the first line of a kind is written at once", calls: [[0, "a", "x"]], lines: ["x"] },
    {
      name: "repeats within the interval are left out",
      calls: [
        [0, "a", "x"],
        [10, "a", "x"],
        [9_999, "a", "x"],
      ],
      lines: ["x"],
    },
    {
      name: "after the interval, one line saying how many were left out",
      calls: [
        [0, "a", "x"],
        [10, "a", "x"],
        [20, "a", "x"],
        [10_000, "a", "y"],
      ],
      lines: ["x", "y (and 2 more like it in the last 10 s)"],
    },
    {
      name: "after a quiet interval, no count",
      calls: [
        [0, "a", "x"],
        [25_000, "a", "x"],
      ],
      lines: ["x", "x"],
    },
    {
      name: "kinds are throttled apart",
      calls: [
        [0, "a", "x"],
        [1, "b", "y"],
        [2, "a", "x"],
        [3, "b", "y"],
      ],
      lines: ["x", "y"],
    },
    {
      name: "the count restarts after each written line",
      calls: [
        [0, "a", "x"],
        [5, "a", "x"],
        [10_000, "a", "x"],
        [20_000, "a", "x"],
      ],
      lines: ["x", "x (and 1 more like it in the last 10 s)", "x"],
    },
  ];
  it.each(cases)("$name", ({ calls, lines }) => {
    const out: string[] = [];
    let t = 0;
    const log = throttledLog(
      (line) => out.push(String(line)),
      10_000,
      () => t,
    );
    for (const [at, kind, message] of calls) {
      t = at;
      log(kind, message);
    }
    expect(out).toEqual(lines);
  });

  it("passes the detail along", () => {
    const out: unknown[][] = [];
    throttledLog(
      (...args) => out.push(args),
      10_000,
      () => 0,
    )("a", "failed:", "reason");
    expect(out).toEqual([["failed:", "reason"]]);
  });
});
