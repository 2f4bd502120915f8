// Crash test of the real server: `npm start` (scripts/start.ts → next start, whose process runs the
// pipeline workers) is killed with SIGKILL while classifications are flowing through the decision engine,
// then started again on the same data. Extracts, reductions and retirements of that workflow then equal
// those of a second workflow that received the same classifications without a crash.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { ADMIN_LOGIN, ADMIN_PASSWORD, E2E_PORT } from "../env";
import { nextServerPid, startApp, stopApp, waitUntilUp, type AppProcess } from "../server-process";
import { API_ACCEPT, accessToken, classifiableWorkflow, createProject, uniqueName, postClassification } from "../support";

const PORT = E2E_PORT + 7;
const BASE = `http://localhost:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-crash-e2e-"));
let server: AppProcess | null = null;

test.afterAll(async () => {
  await stopApp(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("the server killed with SIGKILL mid-pipeline loses nothing and applies nothing twice", async () => {
  test.setTimeout(300_000);
  server = startApp(PORT, dataDir);
  const api = await playwrightRequest.newContext({ baseURL: BASE });
  await waitUntilUp(BASE);
  const token = await accessToken(api, ADMIN_LOGIN, ADMIN_PASSWORD);
  const project = await createProject(api, token, { display_name: uniqueName("Crash") });
  const crashed = await classifiableWorkflow(api, token, project.id, 12);
  const control = await classifiableWorkflow(api, token, project.id, 12);
  const engineHeaders = { Accept: "application/json", Authorization: `Bearer ${token}` };
  for (const w of [crashed, control]) {
    const res = await api.post("/engine/workflows", {
      headers: engineHeaders,
      data: {
        workflow: {
          id: Number(w.workflowId),
          extractors_config: { q: { type: "question", task_key: "T0" } },
          reducers_config: { c: { type: "consensus" }, n: { type: "count" } },
          rules_config: [
            { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] },
          ],
        },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  // 4 anonymous classifications per subject: unanimous on even subjects (retired), split on odd ones.
  const plan = (w: typeof crashed) =>
    w.subjectIds.flatMap((subject, i) => [0, 1, 2, 3].map((k) => ({ w, position: i, subject, answer: i % 2 === 0 ? 0 : k % 2 })));
  const send = async (ctx: APIRequestContext, p: ReturnType<typeof plan>[number]) => {
    await postClassification(ctx, {
      project: project.id,
      workflow: p.w.workflowId,
      version: p.w.version,
      subjects: [p.subject],
      annotations: [{ task: "T0", value: p.answer }],
    });
  };

  const crashPlan = plan(crashed);
  const half = crashPlan.length / 2;
  await Promise.all(
    [0, 1, 2, 3].map(async (lane) => {
      for (let i = lane; i < half; i += 4) await send(api, crashPlan[i]);
    }),
  );
  const t0 = Date.now();
  const log = (what: string) => console.log(`[crash] ${what} at +${Date.now() - t0} ms`);
  process.kill(nextServerPid(server), "SIGKILL");
  await server.exited; // start.ts stops PostgreSQL and exits
  log("old server gone");

  server = startApp(PORT, dataDir);
  const api2 = await playwrightRequest.newContext({ baseURL: BASE });
  await waitUntilUp(BASE);
  log("new server up");
  for (const p of crashPlan.slice(half)) await send(api2, p);
  for (const p of plan(control)) await send(api2, p);
  log("all sent");

  const outcome = async (w: typeof crashed) => {
    const perSubject = [];
    for (const subject of w.subjectIds) {
      const n = await (
        await api2.get(`/engine/workflows/${w.workflowId}/reducers/n/reductions?subject_id=${subject}`, { headers: engineHeaders })
      ).json();
      const c = await (
        await api2.get(`/engine/workflows/${w.workflowId}/reducers/c/reductions?subject_id=${subject}`, { headers: engineHeaders })
      ).json();
      const x = await (
        await api2.get(`/engine/workflows/${w.workflowId}/extractors/q/extracts?subject_id=${subject}`, { headers: engineHeaders })
      ).json();
      perSubject.push({
        n: (n[0]?.data ?? null) as { classifications?: number; extracts?: number } | null,
        c: c[0]?.data ?? null,
        extracts: x.map((e: { data: unknown }) => JSON.stringify(e.data)).sort(),
      });
    }
    const actions = await (await api2.get(`/engine/workflows/${w.workflowId}/actions?page_size=100`, { headers: engineHeaders })).json();
    const workflow = await (
      await api2.get(`/api/workflows/${w.workflowId}`, { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } })
    ).json();
    return {
      perSubject,
      actions: actions.map((a: { status: string; effect_type: string }) => `${a.effect_type}:${a.status}`).sort(),
      retired: workflow.workflows[0].retired_set_member_subjects_count,
    };
  };
  // Every subject counted all four classifications, once each (jsonb orders keys its own way: compare fields).
  const complete = (o: Awaited<ReturnType<typeof outcome>>) => o.perSubject.every((s) => s.n?.classifications === 4 && s.n?.extracts === 4);
  await expect.poll(async () => complete(await outcome(crashed)), { timeout: 90_000 }).toBe(true);
  await expect.poll(async () => complete(await outcome(control)), { timeout: 90_000 }).toBe(true);
  await expect
    .poll(async () => (await outcome(crashed)).actions.every((a: string) => a.endsWith(":completed")), { timeout: 30_000 })
    .toBe(true);
  log("settled");
  const got = await outcome(crashed);
  const want = await outcome(control);
  expect(got.retired).toBe(6);
  expect(got.actions).toHaveLength(6);
  expect(got).toEqual(want);
});
