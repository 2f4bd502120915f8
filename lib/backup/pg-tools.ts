import pg from "pg";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// PostgreSQL's client tools (pg_dump, pg_restore) for a server at DATABASE_URL. pg_dump refuses a server
// newer than itself, and a pg_restore older than the pg_dump that wrote an archive cannot read it, so the
// tool is chosen by version: PG_BIN (a directory) when set, else every copy in the usual per-version
// directories of the distributions' packages and on PATH; the first of the server's major version wins,
// else the oldest newer one.

export interface PgTool {
  bin: string;
  major: number;
  version: string;
}

const SEARCHED = ["/usr/lib/postgresql", "/usr/local/pgsql", "/opt/homebrew/opt"];

function candidateDirs(): string[] {
  if (process.env.PG_BIN) return [process.env.PG_BIN];
  const dirs: string[] = [];
  for (const root of SEARCHED) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(root);
    } catch {
      continue;
    }
    // /usr/lib/postgresql/<major>/bin (Debian, Ubuntu), /opt/homebrew/opt/postgresql@<major>/bin.
    for (const name of names) if (/^(postgresql@)?\d+$/.test(name)) dirs.push(path.join(root, name, "bin"));
  }
  // Then PATH, where a distribution's pg_dump may be a wrapper that picks one of the above.
  return [...dirs, ...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean)];
}

/** `pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)` → 15, "15.18". */
export function parseToolVersion(text: string): { major: number; version: string } | null {
  const m = /\(PostgreSQL\) (\d+)(?:\.(\d+))?/.exec(text);
  return m ? { major: Number(m[1]), version: m[2] === undefined ? m[1] : `${m[1]}.${m[2]}` } : null;
}

/** The installed copies of `name`, each with its version. */
function installed(name: string): PgTool[] {
  const seen = new Set<string>();
  const out: PgTool[] = [];
  for (const dir of candidateDirs()) {
    const bin = path.join(dir, name);
    let real: string;
    try {
      real = fs.realpathSync(bin);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const v = parseToolVersion(spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout ?? "");
    if (v) out.push({ bin, ...v });
  }
  return out;
}

/** The copy of `name` for a server of major version `serverMajor` that is at least `atLeast`. */
export function findPgTool(name: "pg_dump" | "pg_restore", serverMajor: number, atLeast = serverMajor): PgTool {
  const tools = installed(name);
  const fit = tools.filter((t) => t.major >= atLeast).sort((a, b) => a.major - b.major);
  const found = fit.find((t) => t.major === serverMajor) ?? fit.find((t) => t.major > serverMajor) ?? fit[0];
  if (found) return found;
  const where = process.env.PG_BIN ? `in PG_BIN (${process.env.PG_BIN})` : "on PATH or in the usual directories";
  const have = tools.length ? `; found ${tools.map((t) => `${t.version} (${t.bin})`).join(", ")}` : "";
  throw new Error(
    `No ${name} of PostgreSQL ${atLeast} or newer ${where}${have}. Install the client tools of the server's version ` +
      "(postgresql-client-N) and put them on PATH, or set PG_BIN to their directory",
  );
}

/** libpq takes the password from the environment rather than the command line, where `ps` would show it. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a tool against the database at `url`; rejects with its error output when it fails. */
export function runPgTool(tool: PgTool, url: string, args: string[]): Promise<void> {
  const { dbname, env } = connection(url);
  return new Promise((resolve, reject) => {
    const child = spawn(tool.bin, [`--dbname=${dbname}`, ...args], { env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(tool.bin)} failed (${signal ?? `exit code ${code}`}):\n${stderr.trim()}`));
    });
  });
}

/** Runs fn on a connection of its own to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
