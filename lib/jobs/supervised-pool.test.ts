// A worker pool that ends while we are not stopping is started again (graphile-worker shuts a pool down
// when it cannot record a job's outcome); a start that fails is retried; stop() ends it for good.
import type { Runner } from "graphile-worker";
import { describe, expect, it, vi } from "vitest";
import { SupervisedPool } from "./worker";

function fakeRunner() {
  let end!: () => void;
  const promise = new Promise<void>((r) => (end = r));
  const runner = { promise, stop: vi.fn(async () => end()) } as unknown as Runner;
  return { runner, end };
}

const until = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("SupervisedPool", () => {
  it("starts a pool again when it ends on its own, and not after stop()", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const runners: ReturnType<typeof fakeRunner>[] = [];
    const pool = new SupervisedPool("test", async () => {
      runners.push(fakeRunner());
      return runners.at(-1)!.runner;
    });
    await pool.firstStart;
    expect(runners).toHaveLength(1);
    runners[0].end(); // the pool shut itself down
    await until(() => runners.length === 2);
    await pool.stop();
    expect(runners[1].runner.stop).toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 1500));
    expect(runners).toHaveLength(2);
  });

  it("retries a start that fails (the database is unreachable), and firstStart does not wait for it", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    let attempts = 0;
    const pool = new SupervisedPool("test", async () => {
      attempts++;
      if (attempts === 1) throw new Error("connect ECONNREFUSED");
      return fakeRunner().runner;
    });
    await pool.firstStart;
    expect(attempts).toBe(1);
    await until(() => attempts === 2);
    await pool.stop();
  });
});
