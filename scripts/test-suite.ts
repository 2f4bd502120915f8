// npm test's last step: the production build, then the unit suite (vitest) and the browser suite
// (Playwright) side by side. Each of them keeps about one core busy (vitest runs one worker on a
// two-core machine, Playwright one worker with its server), so on two cores the pair takes little more
// than the longer of the two instead of their sum. Each line of output carries its suite's name; the
// step fails when either suite fails, after both have finished (so every failure is printed).
import "./require-node";
import { spawn, spawnSync } from "node:child_process";
import readline from "node:readline";

const node = process.execPath;
const started = performance.now();
const seconds = (from: number) => `${Math.round((performance.now() - from) / 100) / 10} s`;

const build = spawnSync(node, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`[test] build done in ${seconds(started)}`);

function run(name: string, args: string[]): Promise<number> {
  const from = performance.now();
  return new Promise((resolve) => {
    const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    for (const stream of [child.stdout, child.stderr])
      readline.createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
    child.on("exit", (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      console.log(`[test] ${name} ${status === 0 ? "passed" : `FAILED (${signal ?? code})`} in ${seconds(from)}`);
      resolve(status);
    });
  });
}

const results = await Promise.all([
  run("unit", ["node_modules/vitest/vitest.mjs", "run"]),
  run("e2e", ["node_modules/@playwright/test/cli.js", "test"]),
]);
console.log(`[test] build, unit and e2e in ${seconds(started)}`);
process.exit(results.every((r) => r === 0) ? 0 : 1);
