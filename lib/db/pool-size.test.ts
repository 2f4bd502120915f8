// The web server processes' connection pools: an operator's DB_POOL_SIZE as given (per process), else the
// default total split among the WEB_CONCURRENCY processes.
import { describe, expect, it } from "vitest";
import { DEFAULT_POOL_SIZE, webPoolSize } from "./pool-size";

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
