// Faults under load, over real HTTP against the production server: the server process killed with SIGKILL
// while volunteers are classifying (and started again), and PostgreSQL stopped and started again while the
// server keeps running. The volunteers behave as our classifier does: each classification carries an
// Idempotency-Key and is sent again, with the same key, until it is stored. Afterwards every
// classification that got a 2xx is stored exactly once (the listing holds exactly the acknowledged ids)
// and fully processed by the pipeline exactly once (per subject: as many extracts and counted
// classifications as were sent, one retirement action where the rule fires, none where it does not).
// During the database outage every answer is a prompt JSON 503 with Retry-After, never a hang, and the
// same server process recovers on its own.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "../../lib/db/embedded";
import { ADMIN_LOGIN, ADMIN_PASSWORD, E2E_PORT, PUBLIC_CLIENT_ID } from "../env";
import { nextServerPid, startApp, stopApp, waitUntilUp, type AppProcess } from "../server-process";
import { API_ACCEPT, uniqueName } from "../support";

const SUBJECTS = 20;
const PER_SUBJECT = 10; // even subjects unanimous (retired by the rule), odd ones split 5/5 (never retired)
const LANES = 8;

interface Attempt {
  status: number | "network" | "timeout";
  ms: number;
  body?: string;
  retryAfter?: string | null;
}

class Client {
  constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  async call(method: string, p: string, body?: unknown, accept = API_ACCEPT) {
    const res = await fetch(`${this.base}${p}`, {
      method,
      headers: { Accept: accept, Authorization: `Bearer ${this.token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  }
}

async function adminToken(base: string): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ grant_type: "password", client_id: PUBLIC_CLIENT_ID, login: ADMIN_LOGIN, password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

/** A project with a single-question workflow over SUBJECTS subjects, and the engine configured on it. */
async function prepare(api: Client) {
  const project = (
    await api.call("POST", "/api/projects", {
      projects: { display_name: uniqueName("Faults"), description: "faults", primary_language: "en" },
    })
  ).json().projects[0].id as string;
  const wf = await api.call("POST", "/api/workflows", {
    workflows: {
      display_name: "Faults",
      tasks: { T0: { type: "single", question: "?", answers: [{ label: "Yes" }, { label: "No" }] } },
      first_task: "T0",
      retirement: { criteria: "never_retire" },
      links: { project },
    },
  });
  expect(wf.status, wf.text).toBe(201);
  const workflow = wf.json().workflows[0];
  const subjects: string[] = [];
  for (let i = 0; i < SUBJECTS; i++) {
    const s = await api.call("POST", "/api/subjects", {
      subjects: { locations: [{ "image/png": `https://example.org/${i}.png` }], links: { project } },
    });
    expect(s.status, s.text).toBe(201);
    subjects.push(s.json().subjects[0].id);
  }
  const set = await api.call("POST", "/api/subject_sets", {
    subject_sets: { display_name: uniqueName("set"), links: { project, workflows: [workflow.id], subjects } },
  });
  expect(set.status, set.text).toBe(201);
  const engine = await api.call(
    "POST",
    "/engine/workflows",
    {
      workflow: {
        id: Number(workflow.id),
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { c: { type: "consensus" }, n: { type: "count" } },
        rules_config: [
          {
            if: ["gte", ["lookup", "c.num_votes", 0], ["const", PER_SUBJECT / 2 + 1]],
            then: [{ action: "retire_subject", reason: "consensus" }],
          },
        ],
      },
    },
    "application/json",
  );
  expect(engine.status, engine.text).toBe(201);
  // Every subject gets PER_SUBJECT classifications, interleaved so every subject is in flight throughout.
  const plan = Array.from({ length: SUBJECTS * PER_SUBJECT }, (_, i) => {
    const subject = i % SUBJECTS;
    const round = Math.floor(i / SUBJECTS);
    return { key: crypto.randomUUID(), subject: subjects[subject], answer: subject % 2 === 0 ? 0 : round % 2 };
  });
  return { project, workflow: workflow.id as string, version: workflow.version as string, subjects, plan };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

/** Sends every planned classification from LANES volunteers, each resent with its key until stored. */
function runLoad(base: string, p: Prepared) {
  const stored = new Map<string, string>();
  const attempts: Attempt[] = [];
  let next = 0;
  let progress: () => void = () => {};
  const send = async (item: Prepared["plan"][number]) => {
    const body = JSON.stringify({
      classifications: {
        annotations: [{ task: "T0", value: item.answer }],
        metadata: {
          started_at: new Date().toISOString(),
          finished_at: new Date().toISOString(),
          user_agent: "faults",
          user_language: "en",
          workflow_version: p.version,
        },
        links: { project: p.project, workflow: p.workflow, subjects: [item.subject] },
      },
    });
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/api/classifications`, {
          method: "POST",
          headers: { Accept: API_ACCEPT, "Content-Type": "application/json", "Idempotency-Key": item.key },
          body,
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        attempts.push({
          status: res.status,
          ms: performance.now() - t0,
          body: text.slice(0, 300),
          retryAfter: res.headers.get("retry-after"),
        });
        if (res.status === 201 || res.status === 200) {
          stored.set(item.key, JSON.parse(text).classifications[0].id);
          progress();
          return;
        }
      } catch (err) {
        attempts.push({ status: (err as Error).name === "TimeoutError" ? "timeout" : "network", ms: performance.now() - t0 });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`classification ${item.key} was never stored`);
  };
  const done = Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < p.plan.length) await send(p.plan[next++]);
    }),
  );
  /** Resolves once n classifications are stored. */
  const storedAtLeast = (n: number) =>
    new Promise<void>((resolve) => {
      progress = () => stored.size >= n && resolve();
      progress();
    });
  return { stored, attempts, done, storedAtLeast };
}

/** Every acknowledged classification stored exactly once, and processed by the pipeline exactly once. */
async function verifyExactlyOnce(api: Client, p: Prepared, stored: Map<string, string>) {
  expect(stored.size).toBe(p.plan.length);
  const listed: { id: string; links: { subjects: string[] } }[] = [];
  for (let lastId = 0; ; ) {
    const res = await api.call(
      "GET",
      `/api/classifications/project?project_id=${p.project}&page_size=100${lastId ? `&last_id=${lastId}` : ""}`,
    );
    expect(res.status, res.text).toBe(200);
    const page = res.json().classifications;
    if (!page.length) break;
    listed.push(...page);
    lastId = Number(page.at(-1).id);
  }
  expect(listed.length).toBe(p.plan.length);
  expect(new Set(listed.map((c) => c.id))).toEqual(new Set(stored.values()));

  const outcome = async () => {
    const perSubject = [];
    for (const subject of p.subjects) {
      const n = (
        await api.call("GET", `/engine/workflows/${p.workflow}/reducers/n/reductions?subject_id=${subject}`, undefined, "application/json")
      ).json();
      const x = (
        await api.call("GET", `/engine/workflows/${p.workflow}/extractors/q/extracts?subject_id=${subject}`, undefined, "application/json")
      ).json();
      perSubject.push({
        classifications: n[0]?.data?.classifications ?? 0,
        reducedExtracts: n[0]?.data?.extracts ?? 0,
        extracts: x.length,
      });
    }
    const actions = (
      await api.call("GET", `/engine/workflows/${p.workflow}/actions?page_size=100`, undefined, "application/json")
    ).json() as { subject_id: number | string; status: string; effect_type: string }[];
    return { perSubject, actions };
  };
  const want = p.subjects.map(() => ({ classifications: PER_SUBJECT, reducedExtracts: PER_SUBJECT, extracts: PER_SUBJECT }));
  await expect.poll(async () => (await outcome()).perSubject, { timeout: 120_000, intervals: [1000] }).toEqual(want);
  const retiredSubjects = p.subjects.filter((_, i) => i % 2 === 0).sort();
  await expect
    .poll(
      async () =>
        (await outcome()).actions
          .filter((a) => a.status === "completed")
          .map((a) => String(a.subject_id))
          .sort(),
      { timeout: 60_000, intervals: [1000] },
    )
    .toEqual(retiredSubjects);
  const { actions } = await outcome();
  expect(actions.map((a) => `${a.effect_type}:${a.status}`)).toEqual(retiredSubjects.map(() => "retire_subject:completed"));
  const workflow = (await api.call("GET", `/api/workflows/${p.workflow}`)).json().workflows[0];
  expect(workflow.retired_set_member_subjects_count).toBe(retiredSubjects.length);
}

test.describe("faults under load", () => {
  test.describe.configure({ timeout: 420_000 });
  const dirs: string[] = [];
  const mkdir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  let app: AppProcess | null = null;
  let database: EmbeddedDatabase | null = null;
  test.afterEach(async () => {
    await stopApp(app);
    app = null;
    await database?.stop();
    database = null;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the server killed with SIGKILL under classification load: every acknowledged classification stored and processed exactly once", async () => {
    const port = E2E_PORT + 8;
    const base = `http://localhost:${port}`;
    const dataDir = mkdir("quorum-faults-kill-");
    app = startApp(port, dataDir);
    await waitUntilUp(base);
    const api = new Client(base, await adminToken(base));
    const prepared = await prepare(api);

    const load = runLoad(base, prepared);
    await load.storedAtLeast(prepared.plan.length / 3);
    process.kill(nextServerPid(app), "SIGKILL");
    await app.exited; // start.ts stops PostgreSQL and exits when its server dies
    const killedAt = load.stored.size;
    app = startApp(port, dataDir);
    await waitUntilUp(base);
    await load.done;
    console.log(
      `[faults] killed after ${killedAt} stored; ` +
        `${load.attempts.filter((a) => a.status === "network").length} attempts failed on the connection and were resent`,
    );
    expect(killedAt).toBeLessThan(prepared.plan.length);
    expect(load.attempts.filter((a) => typeof a.status === "number" && a.status >= 500 && a.status !== 503)).toEqual([]);
    await verifyExactlyOnce(new Client(base, await adminToken(base)), prepared, load.stored);
  });

  test("PostgreSQL stopped and started again under load: prompt JSON 503s meanwhile, the same server recovers, nothing lost or doubled", async () => {
    const port = E2E_PORT + 9;
    const base = `http://localhost:${port}`;
    const dataDir = mkdir("quorum-faults-pg-");
    const dbPort = await freePort();
    const pgData = mkdir("quorum-faults-pgdata-");
    database = await startEmbeddedPostgres({ dataDir: pgData, port: dbPort, persistent: true });
    app = startApp(port, dataDir, { DATABASE_URL: database.url, DB_CONNECT_TIMEOUT_MS: "2000" });
    await waitUntilUp(base);
    const serverPid = nextServerPid(app);
    const api = new Client(base, await adminToken(base));
    const prepared = await prepare(api);

    const load = runLoad(base, prepared);
    await load.storedAtLeast(prepared.plan.length / 3);
    const before = load.attempts.length;
    await database.stop();
    const downAt = performance.now();
    // Down long enough for every lane to meet the outage several times.
    await new Promise((r) => setTimeout(r, 4000));
    const duringOutage = load.attempts.slice(before);
    database = await startEmbeddedPostgres({ dataDir: pgData, port: dbPort, persistent: true });
    console.log(`[faults] PostgreSQL down for ${Math.round(performance.now() - downAt)} ms; ${duringOutage.length} answers meanwhile`);
    await load.done;

    // Meanwhile: JSON 503s with Retry-After, each within the connect timeout and a margin; never a hang.
    const outage = duringOutage.filter((a) => a.status === 503);
    expect(outage.length).toBeGreaterThan(LANES);
    for (const a of outage) {
      expect(JSON.parse(a.body!).errors[0].message).toMatch(/database is unavailable/);
      expect(a.retryAfter).toMatch(/^\d+$/);
    }
    expect(Math.max(...duringOutage.map((a) => a.ms))).toBeLessThan(5000);
    expect(load.attempts.filter((a) => a.status === "timeout" || a.status === "network")).toEqual([]);
    expect(load.attempts.filter((a) => typeof a.status === "number" && a.status >= 500 && a.status !== 503)).toEqual([]);
    // The same server process served throughout.
    expect(nextServerPid(app)).toBe(serverPid);
    await verifyExactlyOnce(api, prepared, load.stored);
  });
});
