// A production server of our own for the fault specs: `npm start`'s path (scripts/start.ts → next start,
// whose process also runs the pipeline workers) on its own port and data directory, started, killed and
// restarted by the test.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { ADMIN_LOGIN, ADMIN_PASSWORD, PUBLIC_CLIENT_ID } from "./env";
import { API_ACCEPT } from "./support";

export interface AppProcess {
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** Its standard output, line by line (kept only when started with `captureOutput`). */
  output: string[];
}

export function startApp(port: number, dataDir: string, env: Record<string, string> = {}, captureOutput = false): AppProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_CLIENT_ID,
      ADMIN_LOGIN,
      ADMIN_PASSWORD,
      ADMIN_EMAIL: `${ADMIN_LOGIN}@example.org`,
      NODE_ENV: "production",
      WORKER_LEASE_SECONDS: "2",
      ...env,
    },
    stdio: ["ignore", captureOutput ? "pipe" : "ignore", "inherit"],
  });
  const output: string[] = [];
  if (captureOutput) {
    let rest = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      output.push(...lines);
    });
  }
  // With its output captured, once that is all read too ('close' follows the last of it).
  const exited = new Promise<void>((resolve) => child.once(captureOutput ? "close" : "exit", () => resolve()));
  return { child, exited, output };
}

/** Waits until the server answers an API request (up to two minutes). */
export async function waitUntilUp(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${base}/api/projects`, { headers: { Accept: API_ACCEPT }, signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the server at ${base} did not come up`);
}

/** The `next start` child of start.ts (Next renames it `next-server`): it serves requests and runs the workers. */
export function nextServerPid(app: AppProcess): number {
  const children = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(app.child.pid)])
    .toString()
    .trim()
    .split("\n");
  const next = children.find((line) => /next/.test(line) && !/postgres/.test(line));
  if (!next) throw new Error(`no next server among: ${children.join(" | ")}`);
  return Number(next.trim().split(/\s+/)[0]);
}

export async function stopApp(app: AppProcess | null): Promise<void> {
  if (app && app.child.exitCode === null && app.child.signalCode === null) {
    app.child.kill("SIGTERM");
    await app.exited;
  }
}
