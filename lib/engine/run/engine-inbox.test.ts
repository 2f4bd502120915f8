import { describe, expect, it } from "vitest";
import { inboxBatches } from "./engine-inbox";

// How the dispatcher splits waiting classifications into engine jobs.
describe("inboxBatches", () => {
  const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);
  it.each([
    { name: "nothing waiting", ids: [], size: 50, sizes: [] },
    { name: "one classification", ids: [7], size: 50, sizes: [1] },
    { name: "a few waiting are one job (no job takes fewer than eight)", ids: range(8), size: 50, sizes: [8] },
    { name: "fewer than eight: one job", ids: range(3), size: 50, sizes: [3] },
    { name: "a backlog is spread over four jobs", ids: range(40), size: 50, sizes: [10, 10, 10, 10] },
    { name: "a smaller one over fewer jobs of eight", ids: range(20), size: 50, sizes: [8, 8, 4] },
    { name: "a large backlog makes full batches", ids: range(1000), size: 50, sizes: Array(20).fill(50) },
    { name: "the batch size caps a job", ids: range(120), size: 25, sizes: [25, 25, 25, 25, 20] },
    { name: "batch size 1: a job per classification", ids: range(5), size: 1, sizes: [1, 1, 1, 1, 1] },
  ])("$name", ({ ids, size, sizes }) => {
    const batches = inboxBatches(ids, size);
    expect(batches.map((b) => b.length)).toEqual(sizes);
    expect(batches.flat()).toEqual([...ids].sort((a, b) => a - b));
  });

  it("orders ids within and across jobs, losing and repeating none", () => {
    const ids = [9, 3, 12, 1, 5, 8, 2, 11];
    expect(inboxBatches(ids, 50, 4, 2)).toEqual([
      [1, 2],
      [3, 5],
      [8, 9],
      [11, 12],
    ]);
    expect(inboxBatches(ids, 50)).toEqual([[1, 2, 3, 5, 8, 9, 11, 12]]);
  });
});
