// The web server processes' connection pools: an operator's DB_POOL_SIZE as given (per process), else the
// default total split among the WEB_CONCURRENCY processes.
import { describe, expect, it } from "vitest";
import { createStatementsInFlight, DEFAULT_POOL_SIZE, webPoolSize } from "./pool-size";

describe("webPoolSize", () => {
  it.each([
    { configured: undefined, processes: 1, size: DEFAULT_POOL_SIZE },
    { configured: undefined, processes: 2, size: 5 },
    { configured: undefined, processes: 3, size: 4 },
    { configured: undefined, processes: 4, size: 3 },
    { configured: undefined, processes: 8, size: 2 },
    { configured: undefined, processes: 64, size: 2 },
    { configured: "", processes: 2, size: 5 },
    { configured: "  ", processes: 2, size: 5 },
    { configured: "20", processes: 2, size: 20 },
    { configured: "1", processes: 4, size: 1 },
    { configured: "7.9", processes: 1, size: 7 },
    { configured: "0", processes: 2, size: 5 },
    { configured: "-3", processes: 2, size: 5 },
    { configured: "many", processes: 2, size: 5 },
    { configured: undefined, processes: 0, size: DEFAULT_POOL_SIZE },
  ])("DB_POOL_SIZE=$configured with $processes processes: $size each", ({ configured, processes, size }) => {
    expect(webPoolSize(configured, processes)).toBe(size);
  });
});

describe("createStatementsInFlight", () => {
  it.each([
    [1, 1],
    [2, 1],
    [4, 1],
    [5, 1],
    [9, 1],
    [DEFAULT_POOL_SIZE, 2],
    [14, 2],
    [15, 3],
    [20, 4],
    [100, 20],
  ])("a pool of %i connections: %i create statements at once", (pool, inFlight) => {
    expect(createStatementsInFlight(pool)).toBe(inFlight);
  });

  it("one process by default runs 2; each of two processes 1", () => {
    expect(createStatementsInFlight(webPoolSize(undefined, 1))).toBe(2);
    expect(createStatementsInFlight(webPoolSize(undefined, 2))).toBe(1);
  });
});
