import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { drainPipeline, engine } from "@/test/engine";
import { startHttpsServer, type Reply } from "@/test/https-server";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";
import { ownDatabase } from "@/test/own-database";
import { ExternalCallError, postExternal } from "./external-call";

// External extractors, reducers and effects against a local HTTPS server whose self-signed certificate the
// engine is told to trust (ENGINE_CA_FILE): accepted statuses, error statuses, timeouts, retries. The file
// has a database of its own: its jobs call a loopback service only this process allows (OUTBOUND_ALLOW_HOSTS),
// so no other file's drain may run them, and its drains run no other file's leftover jobs (a CI run under load
// failed two of these tests beside the authorization matrix's retried imports, each a slow name lookup).
ownDatabase("external-calls");

const replies: Record<string, Reply> = {
  "/ok200": { status: 200, body: { answer: 42 } },
  "/ok201": { status: 201, body: { answer: 1 } },
  "/ok202": { status: 202, body: { answer: 2 } },
  "/ok204": { status: 204 },
  "/err400": { status: 400, body: { error: "bad" } },
  "/err500": { status: 500, body: { error: "down" } },
  "/redirect": { status: 302 },
  "/slow": { status: 200, body: {}, delayMs: 3000 },
  "/extract": { status: 200, body: { species: "zebra", count: 2 } },
  "/extract-down": { status: 200, body: { species: "lion", count: 1 } },
  "/reduce": { status: 200, body: { likelihood: 0.97 } },
  "/queue": { status: 202, body: { ok: true } },
  "/effect": { status: 204 },
};
let server: Awaited<ReturnType<typeof startHttpsServer>>;
const failing = new Set<string>();

let allowance = "";

beforeAll(async () => {
  server = await startHttpsServer((path) =>
    failing.has(path) ? { status: 503, body: { error: "unavailable" } } : (replies[path] ?? { status: 404 }),
  );
  process.env.ENGINE_CA_FILE = server.caFile;
  process.env.ENGINE_EXTERNAL_TIMEOUT_MS = "500";
  process.env.ENGINE_MAX_ATTEMPTS = "3";
  // The outbound guard refuses loopback: the operator's allowance for this one local service.
  allowance = `localhost:${new URL(server.url("/")).port}`;
  process.env.OUTBOUND_ALLOW_HOSTS = allowance;
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await server.close();
});

/** Makes every waiting retry due now (graphile-worker backs off exponentially). */
async function retryNow() {
  await db().$executeRawUnsafe(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE attempts > 0 AND locked_at IS NULL`);
}

describe("postExternal", () => {
  it.each([
    ["/ok200", { answer: 42 }],
    ["/ok201", { answer: 1 }],
    ["/ok202", { answer: 2 }],
    ["/ok204", null],
  ])("accepts %s", async (path, want) => {
    expect(await postExternal(server.url(path), { a: 1 })).toEqual(want);
    expect(server.received.at(-1)).toMatchObject({ path, body: { a: 1 } });
    expect(server.received.at(-1)!.headers["content-type"]).toBe("application/json");
  });

  it.each([
    ["/err400", /answered 400/],
    ["/err500", /answered 500/],
    ["/redirect", /answered 302/],
    ["/missing", /answered 404/],
  ])("rejects %s as an error", async (path, message) => {
    await expect(postExternal(server.url(path), {})).rejects.toThrow(message);
  });

  it("times out", async () => {
    const started = Date.now();
    await expect(postExternal(server.url("/slow"), {}, { timeoutMs: 200 })).rejects.toThrow(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("goes through the outbound guard: loopback is refused unless allowed, before anything is sent", async () => {
    const before = server.received.length;
    delete process.env.OUTBOUND_ALLOW_HOSTS;
    try {
      await expect(postExternal(server.url("/ok200"), {})).rejects.toThrow(
        /localhost resolves to a loopback address, which is not allowed$/,
      );
      await expect(postExternal(server.url("/ok200").replace("localhost", "127.0.0.1"), {})).rejects.toThrow(
        /address 127\.0\.0\.1 is not allowed \(loopback\)$/,
      );
      await expect(postExternal("https://169.254.169.254/latest/meta-data/", {})).rejects.toThrow(
        /address 169\.254\.169\.254 is not allowed \(link-local\)$/,
      );
    } finally {
      process.env.OUTBOUND_ALLOW_HOSTS = allowance;
    }
    expect(server.received.length).toBe(before);
  });

  it("refuses plain HTTP and untrusted certificates", async () => {
    await expect(postExternal("http://localhost:1/x", {})).rejects.toThrow(ExternalCallError);
    const ca = process.env.ENGINE_CA_FILE;
    delete process.env.ENGINE_CA_FILE;
    try {
      await expect(postExternal(server.url("/ok200"), {})).rejects.toThrow(/certificate/);
    } finally {
      process.env.ENGINE_CA_FILE = ca;
    }
  });
});

async function setup(config: (id: number) => object) {
  const p = await classifiableProject(2);
  const res = await engine.post("/workflows", { workflow: config(p.workflow.id) }, p.owner.token);
  expect(res.status).toBe(201);
  return p;
}

async function classify(p: Awaited<ReturnType<typeof setup>>, subjectId: number) {
  const volunteer = await signedInUser();
  const res = await api.post("/classifications", classificationBody(p.workflow, [subjectId]), { token: volunteer.token });
  expect(res.status).toBe(201);
  return { id: Number(res.body.classifications[0].id), volunteer };
}

describe("external stages in the pipeline", () => {
  it("an external extractor receives the classification data and its answer becomes the extract", async () => {
    const p = await setup((id) => ({
      id,
      extractors_config: { x: { type: "external", url: server.url("/extract") } },
      reducers_config: { c: { type: "count" } },
    }));
    const { id, volunteer } = await classify(p, p.subjects[0].id);
    await drainPipeline();
    const sent = server.received.filter((r) => r.path === "/extract" && r.body.id === id);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({
      id,
      workflow_id: p.workflow.id,
      project_id: p.project.id,
      subject_id: p.subjects[0].id,
      user_id: volunteer.user.id,
      workflow_version: "1.1",
      annotations: { T0: [{ task: "T0", value: 0 }] },
      subject: { id: p.subjects[0].id, metadata: { n: "0" } },
    });
    const extracts = await engine.get(`/workflows/${p.workflow.id}/extractors/x/extracts?subject_id=${p.subjects[0].id}`, p.owner.token);
    expect(extracts.body.map((e: { data: unknown }) => e.data)).toEqual([{ species: "zebra", count: 2 }]);
    const c = await engine.get(`/workflows/${p.workflow.id}/reducers/c/reductions?subject_id=${p.subjects[0].id}`, p.owner.token);
    expect(c.body[0].data).toEqual({ classifications: 1, extracts: 1 });
  });

  it("a failing external extractor is retried with backoff, then left visibly failed, and never blocks the rest", async () => {
    failing.add("/extract-down");
    const p = await setup((id) => ({
      id,
      extractors_config: { x: { type: "external", url: server.url("/extract-down") }, q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "count" } },
    }));
    const { id } = await classify(p, p.subjects[0].id);
    await drainPipeline();
    // The internal extractor and the reducer went ahead.
    const c = await engine.get(`/workflows/${p.workflow.id}/reducers/c/reductions?subject_id=${p.subjects[0].id}`, p.owner.token);
    expect(c.body[0].data).toEqual({ classifications: 1, extracts: 1 });
    const job = async () =>
      (
        await db().$queryRawUnsafe<{ attempts: number; max_attempts: number; last_error: string; run_at: Date }[]>(
          `SELECT attempts, max_attempts, last_error, run_at FROM graphile_worker.jobs WHERE key = $1`,
          `xe:${p.workflow.id}:${id}:x`,
        )
      )[0];
    const first = await job();
    expect(first.attempts).toBe(1);
    expect(first.last_error).toMatch(/answered 503/);
    expect(first.run_at.getTime()).toBeGreaterThan(Date.now()); // backing off
    await retryNow();
    await drainPipeline(1);
    await retryNow();
    await drainPipeline(1);
    const last = await job();
    expect(last).toMatchObject({ attempts: 3, max_attempts: 3 });
    expect(last.last_error).toMatch(/answered 503/);
    // Recovery: once the service answers, a replayed job stores the extract.
    failing.delete("/extract-down");
    await db().$executeRawUnsafe(
      `UPDATE graphile_worker._private_jobs SET attempts = 0, run_at = now() WHERE key = $1`,
      `xe:${p.workflow.id}:${id}:x`,
    );
    await drainPipeline();
    expect(await db().extract.count({ where: { classificationId: id, extractorKey: "x" } })).toBe(1);
  });

  it("an external reducer's answer is stored as the reduction; a queue reducer delivers each extract once", async () => {
    const p = await setup((id) => ({
      id,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: {
        ml: { type: "external", url: server.url("/reduce") },
        q2: { type: "queue", queue_url: server.url("/queue"), queue_name: "experts" },
      },
    }));
    await classify(p, p.subjects[0].id);
    await drainPipeline();
    await classify(p, p.subjects[0].id);
    await drainPipeline();
    const ml = await engine.get(`/workflows/${p.workflow.id}/reducers/ml/reductions?subject_id=${p.subjects[0].id}`, p.owner.token);
    expect(ml.body[0].data).toEqual({ likelihood: 0.97 });
    const reduceCalls = server.received.filter((r) => r.path === "/reduce" && r.body.id === p.subjects[0].id);
    expect(reduceCalls.at(-1)!.body.extracts).toHaveLength(2);
    const deliveries = server.received.filter((r) => r.path === "/queue" && r.body.messages?.[0]?.workflow_id === p.workflow.id);
    expect(deliveries.map((d) => d.body.queue_name)).toEqual(["experts", "experts"]);
    expect(deliveries.flatMap((d) => d.body.messages.map((m: { id: number }) => m.id))).toHaveLength(2);
    expect(new Set(deliveries.flatMap((d) => d.body.messages.map((m: { id: number }) => m.id))).size).toBe(2);
  });

  it("an external effect is performed once with the action id as idempotency key; a failing one is retried then marked failed", async () => {
    const p = await setup((id) => ({
      id,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "count" }, n: { type: "count" } },
      rules_config: [
        {
          if: ["gte", ["lookup", "c.classifications", 0], ["const", 1]],
          then: [{ action: "external_effect", url: server.url("/effect") }],
        },
        {
          if: ["gte", ["lookup", "c.classifications", 0], ["const", 2]],
          then: [{ action: "external_effect", url: server.url("/effect-down") }],
        },
        {
          if: ["gte", ["lookup", "c.classifications", 0], ["const", 2]],
          then: [{ action: "external_effect", url: server.url("/effect-n"), reducer_key: "n" }],
        },
      ],
    }));
    failing.add("/effect-down");
    await classify(p, p.subjects[0].id);
    await classify(p, p.subjects[0].id);
    await drainPipeline();
    const done = server.received.filter((r) => r.path === "/effect" && r.body.workflow_id === p.workflow.id);
    expect(done).toHaveLength(1);
    expect(done[0].body).toMatchObject({ subject_id: p.subjects[0].id, reductions: { c: { classifications: 2 } } });
    expect(done[0].headers["idempotency-key"]).toBe(`action-${done[0].body.action_id}`);
    // With reducer_key, only that reducer's reductions are sent.
    const onlyN = server.received.filter((r) => r.path === "/effect-n" && r.body.workflow_id === p.workflow.id);
    expect(onlyN.map((r) => r.body.reductions)).toEqual([{ n: { classifications: 2, extracts: 2 } }]);
    let actions = await engine.get(`/workflows/${p.workflow.id}/actions`, p.owner.token);
    const down = () => actions.body.find((a: { config: { url: string } }) => a.config.url.endsWith("/effect-down"));
    expect(actions.body.find((a: { config: { url: string } }) => a.config.url.endsWith("/effect")).status).toBe("completed");
    expect(down()).toMatchObject({ status: "pending", attempts: 1 });
    expect(down().error).toMatch(/answered 503/);
    await retryNow();
    await drainPipeline(1);
    await retryNow();
    await drainPipeline(1);
    actions = await engine.get(`/workflows/${p.workflow.id}/actions`, p.owner.token);
    expect(down()).toMatchObject({ status: "failed", attempts: 3 });
    failing.delete("/effect-down");
  });

  it("a timeout is an error recorded on the action", async () => {
    const p = await setup((id) => ({
      id,
      reducers_config: { c: { type: "count" } },
      extractors_config: { q: { type: "question", task_key: "T0" } },
      rules_config: [{ if: ["const", true], then: [{ action: "external_effect", url: server.url("/slow") }] }],
    }));
    await classify(p, p.subjects[0].id);
    await drainPipeline();
    const actions = await engine.get(`/workflows/${p.workflow.id}/actions`, p.owner.token);
    expect(actions.body[0]).toMatchObject({ status: "pending", attempts: 1 });
    expect(actions.body[0].error).toMatch(/did not answer within 500 ms/);
  });
});
