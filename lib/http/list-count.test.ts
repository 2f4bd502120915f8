import { describe, expect, it } from "vitest";
import { countList, ESTIMATE_THRESHOLD, EXACT_COUNT_CAP, type ScopeCounting } from "./list-count";

/** Counting functions that record which were asked. */
function counting(figures: { counter?: number | null; estimate: number; exact: number }) {
  const asked: string[] = [];
  const c: ScopeCounting = {
    counter:
      figures.counter === undefined
        ? undefined
        : async () => {
            asked.push("counter");
            return figures.counter!;
          },
    estimate: async () => {
      asked.push("estimate");
      return figures.estimate;
    },
    countUpTo: async (cap) => {
      asked.push(`count ${cap}`);
      return figures.exact < cap ? figures.exact : null;
    },
  };
  return { c, asked };
}

describe("countList", () => {
  it("a page that is not full is the last: the count is known without a query", async () => {
    const { c, asked } = counting({ counter: 5, estimate: 99_999, exact: 43 });
    expect(await countList({ skipped: 40, rows: 3, more: false }, c)).toEqual({ count: 43, source: "exact" });
    expect(await countList({ skipped: 0, rows: 0, more: false }, c)).toEqual({ count: 0, source: "exact" });
    expect(asked).toEqual([]);
  });

  it("a counter that answers the scope comes first", async () => {
    const { c, asked } = counting({ counter: 1234, estimate: 99_999, exact: 1234 });
    expect(await countList({ skipped: 0, rows: 20, more: true }, c)).toEqual({ count: 1234, source: "counter" });
    expect(asked).toEqual(["counter"]);
  });

  it("without one: the estimate from the threshold up, an exact (capped) count below it", async () => {
    const big = counting({ counter: null, estimate: ESTIMATE_THRESHOLD, exact: 3 });
    expect(await countList({ skipped: 0, rows: 20, more: true }, big.c)).toEqual({ count: ESTIMATE_THRESHOLD, source: "estimate" });
    expect(big.asked).toEqual(["counter", "estimate"]);
    const small = counting({ estimate: ESTIMATE_THRESHOLD - 1, exact: 25 });
    expect(await countList({ skipped: 0, rows: 20, more: true }, small.c)).toEqual({ count: 25, source: "exact" });
    expect(small.asked).toEqual(["estimate", `count ${EXACT_COUNT_CAP}`]);
  });

  it("a planner that expected few where the cap is reached gives an estimate, never less than the cap", async () => {
    const { c } = counting({ estimate: 10, exact: 10 * EXACT_COUNT_CAP });
    expect(await countList({ skipped: 0, rows: 20, more: true }, c)).toEqual({ count: EXACT_COUNT_CAP, source: "estimate" });
  });

  it("the count is never below what the page shows exists", async () => {
    const { c } = counting({ estimate: 50_000, exact: 0 });
    expect(await countList({ skipped: 90_000, rows: 100, more: true }, c)).toEqual({ count: 90_101, source: "estimate" });
    const counter = counting({ counter: 2, estimate: 0, exact: 0 });
    expect(await countList({ skipped: 0, rows: 3, more: true }, counter.c)).toEqual({ count: 4, source: "counter" });
  });
});
