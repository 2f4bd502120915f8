import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The shutdown runs in a process of its own, as in the server: what it waits on holds no handle (a sleep on
// an unref'd timer, as the worker's pools and the engine inbox sleep), so only the shutdown keeps the
// process alive until its last line is written and it exits with its code.

const root = path.resolve(import.meta.dirname, "../..");

function run(script: string, env: Record<string, string> = {}): { status: number | null; lines: Array<Record<string, unknown>> } {
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, LOG_FORMAT: "json", SHUTDOWN_TIMEOUT_MS: "1000", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  const lines = child.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: child.status, lines };
}

const module_ = (file: string, copy = "") => JSON.stringify(`${pathToFileURL(path.join(root, file)).href}${copy}`);

function runShutdown(stopWorker: string) {
  return run(`
    const { shutdown } = await import(${module_("lib/ops/shutdown.ts")});
    await shutdown({ stopWorker: ${stopWorker} }, "SIGTERM");
  `);
}

describe("shutdown in a process of its own", () => {
  it.each([
    ["a worker that stops at once", "async () => {}", 0, "[shutdown] stopped cleanly", true],
    [
      "a worker sleeping on an unref'd timer",
      "() => new Promise((r) => setTimeout(r, 300).unref())",
      0,
      "[shutdown] stopped cleanly",
      true,
    ],
    [
      "a worker that outlives the bound",
      "() => new Promise((r) => setTimeout(r, 5000).unref())",
      1,
      "[shutdown] time is up: stopping with work still in flight",
      false,
    ],
  ])("%s: its last line written, then its exit code", (_name, stopWorker, code, msg, workerStopped) => {
    const { status, lines } = runShutdown(stopWorker);
    expect(status).toBe(code);
    expect(lines.at(-1)).toMatchObject({ msg, signal: "SIGTERM", requestsAbandoned: 0, workerStopped });
  });

  it("a copy of the edge module loaded after the shutdown took the signals (Next bundles its own) leaves the stop to it", () => {
    // As in the server: the edge module preloaded (it stops a process told to stop while it starts), the
    // shutdown installed, and later a bundle's copy of the edge module evaluated.
    const { status, lines } = run(
      `
      await import(${module_("lib/net/peer-address.ts")});
      const { shutdownOnSignals } = await import(${module_("lib/ops/shutdown.ts")});
      shutdownOnSignals({ stopWorker: () => new Promise((r) => setTimeout(r, 300)) });
      await import(${module_("lib/net/peer-address.ts", "?bundled-copy")});
      process.kill(process.pid, "SIGTERM");
      setInterval(() => {}, 1000);
    `,
      { QUORUM_PEER_ADDRESS_PRELOAD: "1" },
    );
    expect(status).toBe(0);
    expect(lines.at(-1)).toMatchObject({ msg: "[shutdown] stopped cleanly", workerStopped: true });
  });
});
