// npm start / npm run dev: database (embedded unless DATABASE_URL), migrations, build if needed, serve.
import "./require-node";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { prepareDatabase } from "./with-database";

const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const nextBin = path.resolve("node_modules/next/dist/bin/next");

const stopDatabase = await prepareDatabase();

if (!dev && !fs.existsSync(".next/BUILD_ID")) {
  console.log("no production build yet: running next build");
  const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: process.env });
  if (build.status !== 0) {
    await stopDatabase();
    process.exit(build.status ?? 1);
  }
}

const server = spawn(process.execPath, [nextBin, dev ? "dev" : "start", "-p", port], { stdio: "inherit", env: process.env });
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  // Still running (a server killed by a signal has a signalCode and no exitCode: it is gone too).
  if (server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
  await stopDatabase();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
server.on("exit", (code) => void shutdown(code ?? 0));
