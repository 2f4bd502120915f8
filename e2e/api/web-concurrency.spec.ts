// `WEB_CONCURRENCY=2 npm start`: two Next processes serve one port (node:cluster, scripts/start.ts is the
// primary), each with half the default database connections; one killed with SIGKILL is replaced while the
// other keeps answering; /metrics sums both processes' metrics; SIGTERM stops them all and the embedded
// PostgreSQL.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { E2E_PORT, PUBLIC_CLIENT_ID } from "../env";
import { API_ACCEPT } from "../support";

const PORT = E2E_PORT + 9;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-cluster-e2e-"));
let primary: ChildProcess | null = null;

/** The processes start.ts started (the Next servers, and PostgreSQL). */
function children(): { pid: number; args: string }[] {
  try {
    return execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(primary!.pid)])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => ({ pid: Number(line.trim().split(/\s+/)[0]), args: line.trim().replace(/^\d+\s+/, "") }));
  } catch {
    return []; // ps exits 1 when there are none
  }
}
const servers = () => children().filter((c) => !/postgres/.test(c.args));

async function waitFor<T>(what: string, fn: () => T | Promise<T>, until: (v: T) => boolean, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (until(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function allAnswer(api: APIRequestContext, n: number) {
  const statuses = await Promise.all(
    Array.from({ length: n }, () =>
      api.get("/api/projects", { headers: { Accept: API_ACCEPT } }).then(
        (r) => r.status(),
        () => 0,
      ),
    ),
  );
  expect(statuses).toEqual(Array(n).fill(200));
}

test.afterAll(async () => {
  if (primary && primary.exitCode === null) {
    primary.kill("SIGTERM");
    await new Promise((r) => primary!.once("exit", r));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("WEB_CONCURRENCY=2 serves one port from two processes, replaces a killed one, and stops cleanly", async () => {
  test.setTimeout(240_000);
  primary = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      DB_POOL_SIZE: "",
      PORT: String(PORT),
      DATA_DIR: dataDir,
      PUBLIC_CLIENT_ID,
      NODE_ENV: "production",
      WEB_CONCURRENCY: "2",
      WORKER: "off",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<number | null>((r) => primary!.once("exit", (code) => r(code)));
  const api = await playwrightRequest.newContext({ baseURL: `http://localhost:${PORT}` });
  await waitFor(
    "the server",
    () =>
      api.get("/api/projects", { headers: { Accept: API_ACCEPT } }).then(
        (r) => r.status(),
        () => 0,
      ),
    (s) => s === 200,
  );

  const first = await waitFor("two server processes", servers, (s) => s.length === 2);
  // Each has half the web tier's default database connections (lib/db/pool-size.ts).
  for (const p of first) expect(fs.readFileSync(`/proc/${p.pid}/environ`, "utf8").split("\0")).toContain("DB_POOL_SIZE=5");
  await allAnswer(api, 40);
  // One scrape sees the whole instance: the requests both processes answered, summed (the primary collects
  // them), from whichever process the scrape reached.
  for (let i = 0; i < 2; i++) {
    const scrape = await api.get("/metrics");
    expect(scrape.status()).toBe(200);
    const text = await scrape.text();
    const served = Number(
      /^quorum_http_request_duration_seconds_count\{method="GET",route="\/api\/projects",status="200"\} (\d+)$/m.exec(text)?.[1],
    );
    expect(served).toBeGreaterThan(40);
    expect(Number(/^quorum_db_pool_connections\{pool="primary",state="idle"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(0);
  }

  process.kill(first[0].pid, "SIGKILL");
  const replaced = await waitFor("a replacement", servers, (s) => s.length === 2 && !s.some((p) => p.pid === first[0].pid));
  expect(replaced.map((p) => p.pid)).toContain(first[1].pid);
  await waitFor(
    "the replacement to listen",
    () =>
      allAnswer(api, 20).then(
        () => true,
        () => false,
      ),
    (ok) => ok,
  );
  await allAnswer(api, 40);

  primary.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(children()).toEqual([]);
  for (const p of replaced) expect(() => process.kill(p.pid, 0)).toThrow();
  await api.dispose();
});
