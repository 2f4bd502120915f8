import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { api } from "@/test/http";
import { drainPipeline, engine } from "@/test/engine";
import { classificationBody, createProject, createSubjectSet, createWorkflow, signedInUser } from "@/test/factories";
import { ownDatabase } from "@/test/own-database";

// Crash test: a worker process runs the pipeline while classifications arrive and is killed with SIGKILL
// mid-flow; a new one starts. Afterwards extracts, reductions, actions and retirements equal those of the
// same classifications processed without a crash. This file has a database of its own, so no other test's
// jobs run in (or are taken by) the worker processes it starts.

// Registered first: its teardown runs last (after hooks run in reverse), once the workers are killed.
const database = ownDatabase("crash");
const workers: ChildProcess[] = [];

afterAll(() => {
  for (const w of workers) w.kill("SIGKILL");
});

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: path.resolve(import.meta.dirname, "../../.."),
    // One classification per job, one job at a time: the first half is dozens of jobs run one after
    // another, so the kill lands mid-flow however fast the machine is.
    env: { ...process.env, DATABASE_URL: database.url(), WORKER_LEASE_SECONDS: "2", WORKER_CONCURRENCY: "1", ENGINE_BATCH_SIZE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (d) => process.stderr.write(`[worker ${child.pid}] ${d}`));
  workers.push(child);
  return child;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  const jobs = await pool().query(`SELECT task_identifier, attempts, last_error, run_at, locked_by FROM graphile_worker.jobs LIMIT 5`);
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(jobs.rows)}`);
}

const config = (id: number) => ({
  id,
  extractors_config: { q: { type: "question", task_key: "T0" } },
  reducers_config: {
    c: { type: "consensus" },
    n: { type: "count", reduction_mode: "running_reduction" },
    u: { type: "count", topic: "reduce_by_user", reduction_mode: "running_reduction" },
  },
  rules_config: [{ if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] }],
});

/** What the engine concluded for a workflow, keyed by subject position so two workflows compare. */
async function outcome(workflowId: number, subjectIds: number[]) {
  const pos = new Map(subjectIds.map((id, i) => [id, i]));
  // Running stores name the classifications they counted: the two workflows' ids differ, their number must not.
  const store = (s: unknown) =>
    JSON.stringify(
      s && typeof s === "object" && "classification_ids" in s
        ? { ...s, classification_ids: (s.classification_ids as unknown[]).length }
        : s,
    );
  const reductions = await db().subjectReduction.findMany({
    where: { workflowId },
    select: { subjectId: true, reducerKey: true, subgroup: true, data: true, store: true },
  });
  const userReductions = await db().userReduction.findMany({
    where: { workflowId },
    select: { userId: true, reducerKey: true, data: true },
  });
  const retired = await db().subjectWorkflowStatus.findMany({
    where: { workflowId, retiredAt: { not: null } },
    select: { subjectId: true, retirementReason: true },
  });
  const extracts = await db().extract.findMany({ where: { workflowId }, select: { subjectId: true, userId: true, data: true } });
  const w = await db().workflow.findUniqueOrThrow({ where: { id: workflowId } });
  return {
    extracts: extracts.map((e) => `${pos.get(e.subjectId)}:${e.userId}:${JSON.stringify(e.data)}`).sort(),
    reductions: reductions
      .map((r) => `${pos.get(r.subjectId)}:${r.reducerKey}:${r.subgroup}:${JSON.stringify(r.data)}:${store(r.store)}`)
      .sort(),
    userReductions: userReductions.map((r) => `${r.userId}:${r.reducerKey}:${JSON.stringify(r.data)}`).sort(),
    retired: retired.map((r) => `${pos.get(r.subjectId)}:${r.retirementReason}`).sort(),
    actions: await db().engineAction.count({ where: { workflowId, status: "completed" } }),
    pendingActions: await db().engineAction.count({ where: { workflowId, status: { not: "completed" } } }),
    retiredCounter: w.retiredSetMemberSubjectsCount,
  };
}

describe("crash test", () => {
  it("a worker killed with SIGKILL mid-pipeline loses nothing and applies nothing twice", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const control = await createWorkflow(project.id);
    const crashed = await createWorkflow(project.id);
    const { subjects } = await createSubjectSet(project.id, 16, { workflowIds: [control.id, crashed.id] });
    for (const w of [control, crashed]) expect((await engine.post("/workflows", { workflow: config(w.id) }, owner.token)).status).toBe(201);
    const volunteers = await Promise.all(Array.from({ length: 4 }, () => signedInUser()));
    // 4 volunteers × 16 subjects; answers agree on even subjects (retired), split on odd ones.
    const plan = subjects.flatMap((s, i) =>
      volunteers.map((v, k) => ({ subjectId: s.id, token: v.token, answer: i % 2 === 0 ? 0 : k % 2 })),
    );
    const classify = async (w: typeof control, p: (typeof plan)[number]) => {
      const body = classificationBody(w, [p.subjectId]);
      body.classifications.annotations = [{ task: "T0", value: p.answer }];
      const res = await api.post("/classifications", body, { token: p.token });
      expect(res.status).toBe(201);
    };

    const first = startWorkerProcess();
    await waitFor(
      async () => (await pool().query(`SELECT count(*)::int AS n FROM worker_leases`)).rows[0].n > 0,
      30_000,
      "the first worker",
    );
    const half = Math.floor(plan.length / 2);
    // The first half in a burst (eight at a time), so it waits as many jobs; killed as soon as work starts.
    for (let i = 0; i < half; i += 8) await Promise.all(plan.slice(i, Math.min(i + 8, half)).map((p) => classify(crashed, p)));
    await waitFor(async () => (await db().extract.count({ where: { workflowId: crashed.id } })) > 0, 30_000, "work to start", 5);
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const left = (
      await pool().query(`SELECT ((SELECT count(*) FROM graphile_worker.jobs) + (SELECT count(*) FROM engine_inbox))::int AS n`)
    ).rows[0].n;
    for (const p of plan.slice(half)) await classify(crashed, p);

    startWorkerProcess();
    await waitFor(
      async () =>
        (await pool().query(`SELECT ((SELECT count(*) FROM graphile_worker.jobs) + (SELECT count(*) FROM engine_inbox))::int AS n`)).rows[0]
          .n === 0,
      90_000,
      "the queue to empty after the restart",
    );

    // The same classifications, processed without a crash.
    for (const p of plan) await classify(control, p);
    await waitFor(
      async () =>
        (await pool().query(`SELECT ((SELECT count(*) FROM graphile_worker.jobs) + (SELECT count(*) FROM engine_inbox))::int AS n`)).rows[0]
          .n === 0,
      90_000,
      "the control run",
    );
    await drainPipeline(1);

    const got = await outcome(
      crashed.id,
      subjects.map((s) => s.id),
    );
    const want = await outcome(
      control.id,
      subjects.map((s) => s.id),
    );
    expect(left).toBeGreaterThan(0); // the kill did land mid-flow
    expect(got.extracts).toHaveLength(plan.length);
    expect(got.retired).toHaveLength(8);
    expect(got.retiredCounter).toBe(8);
    expect(got.pendingActions).toBe(0);
    expect(got).toEqual(want);
  }, 240_000);
});
