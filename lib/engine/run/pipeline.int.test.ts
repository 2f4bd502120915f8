import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { drainPipeline, drainUntil, engine } from "@/test/engine";
import { classifiableProject, classificationBody, createSubjectSet, createWorkflow, signedInUser } from "@/test/factories";
import { queueTx, runStage } from "./pipeline";
import { extractClassifications } from "./extract-classification";
import { classificationBatch, processEngineInbox } from "./engine-inbox";
import { EVENTS } from "./events";

// The live pipeline in the no-Inngest mode: real classifications through the API, then the queue drained,
// observing extracts, reductions, actions and retirements.

const retireOnConsensus = (id: number, extra: object = {}) => ({
  id,
  extractors_config: { q: { type: "question", task_key: "T0" } },
  reducers_config: { c: { type: "consensus" }, n: { type: "count", reduction_mode: "running_reduction" } },
  rules_config: [{ if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] }],
  ...extra,
});

async function classify(workflow: Parameters<typeof classificationBody>[0], subjectId: number, answer: unknown, token?: string) {
  const body = classificationBody(workflow, [subjectId]);
  body.classifications.annotations = [{ task: "T0", value: answer as number }];
  const res = await api.post("/classifications", body, { token });
  expect(res.status).toBe(201);
  return Number(res.body.classifications[0].id);
}

const retiredAt = async (subjectId: number, workflowId: number) =>
  (await db().subjectWorkflowStatus.findUnique({ where: { subjectId_workflowId: { subjectId, workflowId } } }))?.retiredAt ?? null;

describe("pipeline: classification → extract → reduce → rules → effects", () => {
  it("retires a subject when three volunteers agree, and the queue stops serving it", async () => {
    const { owner, workflow, subjects } = await classifiableProject(3);
    expect((await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id) }, owner.token)).status).toBe(201);
    const [s] = subjects;
    const volunteers = await Promise.all([1, 2, 3].map(() => signedInUser()));

    await classify(workflow, s.id, 0, volunteers[0].token);
    await classify(workflow, s.id, 1, volunteers[1].token);
    await drainPipeline();
    const extracts = await engine.get(`/workflows/${workflow.id}/extractors/q/extracts?subject_id=${s.id}`, owner.token);
    expect(extracts.status).toBe(200);
    expect(extracts.body.map((e: { data: unknown }) => e.data)).toEqual([{ "0": 1 }, { "1": 1 }]);
    expect(extracts.body[0]).toMatchObject({
      subject_id: s.id,
      workflow_id: workflow.id,
      extractor_key: "q",
      user_id: volunteers[0].user.id,
    });
    let c = await engine.get(`/workflows/${workflow.id}/reducers/c/reductions?subject_id=${s.id}`, owner.token);
    expect(c.body[0].data).toMatchObject({ num_votes: 1 });
    expect(await retiredAt(s.id, workflow.id)).toBeNull();

    await classify(workflow, s.id, 0, volunteers[2].token);
    await classify(workflow, s.id, 0); // anonymous
    await drainPipeline();
    c = await engine.get(`/workflows/${workflow.id}/reducers/c/reductions?subject_id=${s.id}`, owner.token);
    expect(c.body[0].data).toEqual({ most_likely: "0", num_votes: 3, agreement: 0.75 });
    const n = await engine.get(`/workflows/${workflow.id}/reducers/n/reductions?subject_id=${s.id}`, owner.token);
    expect(n.body[0].data).toEqual({ classifications: 4, extracts: 4 });

    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: s.id, workflowId: workflow.id } },
    });
    expect(sws.retiredAt).not.toBeNull();
    expect(sws.retirementReason).toBe("consensus");
    const actions = await engine.get(`/workflows/${workflow.id}/actions`, owner.token);
    expect(actions.body).toHaveLength(1);
    expect(actions.body[0]).toMatchObject({
      effect_type: "retire_subject",
      subject_id: s.id,
      status: "completed",
      attempts: 1,
      error: null,
    });

    const fresh = await signedInUser();
    const queued = await api.get(`/subjects/queued?workflow_id=${workflow.id}`, { token: fresh.token });
    expect(queued.body.subjects.map((x: { id: string }) => Number(x.id))).not.toContain(s.id);
  });

  it("a rule may look up a reducer that is not configured: the lookup yields its default (saved with a warning)", async () => {
    const { owner, workflow, subjects } = await classifiableProject(2);
    const config = retireOnConsensus(workflow.id, {
      rules_config: [
        {
          if: [
            "and",
            ["gte", ["lookup", "n.classifications", 0], ["const", 2]],
            ["eq", ["lookup", "later.verdict", "none"], ["const", "none"]],
          ],
          then: [{ action: "retire_subject", reason: "other" }],
        },
      ],
    });
    const saved = await engine.post("/workflows", { workflow: config }, owner.token);
    expect(saved.status).toBe(201);
    expect(saved.body.warnings).toEqual([
      "rules_config[0].if[2][1][1]: lookup 'later.verdict': 'later' is not a configured reducer, so it always yields its default",
    ]);
    const [s, untouched] = subjects;
    await classify(workflow, s.id, 0);
    await classify(workflow, s.id, 1);
    await classify(workflow, untouched.id, 1);
    await drainPipeline();
    expect(await retiredAt(s.id, workflow.id)).not.toBeNull();
    expect(await retiredAt(untouched.id, workflow.id)).toBeNull();
  });

  it("re-running stages after a crash applies nothing twice", async () => {
    const { owner, workflow, subjects } = await classifiableProject(1);
    await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id) }, owner.token);
    const [s] = subjects;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await classify(workflow, s.id, 1, (await signedInUser()).token));
    await drainPipeline();
    // As if the worker died after committing and the queue ran every stage again.
    for (const id of ids) await runStage({ name: EVENTS.classificationReceived, data: { classification_id: id } }, queueTx);
    await runStage({ name: EVENTS.extractsChanged, data: { workflow_id: workflow.id, topic: "subject", target_id: s.id } }, queueTx);
    await runStage({ name: EVENTS.reductionsChanged, data: { workflow_id: workflow.id, topic: "subject", target_id: s.id } }, queueTx);
    await drainPipeline();
    expect(await db().extract.count({ where: { workflowId: workflow.id } })).toBe(3);
    const n = await engine.get(`/workflows/${workflow.id}/reducers/n/reductions?subject_id=${s.id}`, owner.token);
    expect(n.body[0].data).toEqual({ classifications: 3, extracts: 3 });
    expect(await db().engineAction.count({ where: { workflowId: workflow.id } })).toBe(1);
    const w = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect(w.retiredSetMemberSubjectsCount).toBe(1);
  });

  it("paused workflows reduce and act but extract nothing new; halted ones do nothing; unconfigured ones are skipped", async () => {
    const { owner, workflow, subjects } = await classifiableProject(2);
    await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id, { status: "paused" }) }, owner.token);
    await classify(workflow, subjects[0].id, 0, (await signedInUser()).token);
    await drainPipeline();
    expect(await db().extract.count({ where: { workflowId: workflow.id } })).toBe(0);
    // Extracts posted from outside still reduce and act while paused.
    for (let i = 0; i < 3; i++) {
      const res = await engine.post(
        `/workflows/${workflow.id}/extractors/q/extracts`,
        {
          subject_id: subjects[0].id,
          classification_id: 900_000 + workflow.id * 10 + i,
          classification_at: new Date().toISOString(),
          user_id: null,
          data: { "1": 1 },
        },
        owner.token,
      );
      expect(res.status).toBe(200);
    }
    await drainPipeline();
    expect(await retiredAt(subjects[0].id, workflow.id)).not.toBeNull();

    await engine.put(`/workflows/${workflow.id}`, { workflow: { status: "halted" } }, owner.token);
    for (let i = 0; i < 3; i++) {
      await engine.post(
        `/workflows/${workflow.id}/extractors/q/extracts`,
        {
          subject_id: subjects[1].id,
          classification_id: 800_000 + workflow.id * 10 + i,
          classification_at: new Date().toISOString(),
          data: { "1": 1 },
        },
        owner.token,
      );
    }
    await drainPipeline();
    expect(await db().subjectReduction.count({ where: { workflowId: workflow.id, subjectId: subjects[1].id } })).toBe(0);
    expect(await retiredAt(subjects[1].id, workflow.id)).toBeNull();

    const other = await classifiableProject(1);
    await classify(other.workflow, other.subjects[0].id, 0, (await signedInUser()).token);
    await drainPipeline();
    expect(await db().extract.count({ where: { workflowId: other.workflow.id } })).toBe(0);
  });

  it("moves hard subjects to an expert set, collects them, and promotes prolific volunteers", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(2);
    const expertSet = (await createSubjectSet(project.id, 0)).set;
    const expertWorkflow = await createWorkflow(project.id);
    const collection = await db().collection.create({
      data: { name: "hard", displayName: "Hard ones", ownerId: owner.user.id, projectIds: [project.id] },
    });
    const config = {
      id: workflow.id,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "consensus" }, u: { type: "count", topic: "reduce_by_user" } },
      rules_config: [
        {
          if: ["and", ["gte", ["lookup", "c.num_votes", 0], ["const", 1]], ["lt", ["lookup", "c.agreement", 1], ["const", 0.75]]],
          then: [
            { action: "add_subject_to_set", subject_set_id: String(expertSet.id) },
            { action: "add_subject_to_collection", collection_id: String(collection.id) },
          ],
        },
        {
          topic: "user",
          if: ["gte", ["lookup", "u.classifications", 0], ["const", 2]],
          then: [{ action: "promote_user", workflow_id: String(expertWorkflow.id) }],
        },
      ],
    };
    expect((await engine.post("/workflows", { workflow: config }, owner.token)).status).toBe(201);
    const keen = await signedInUser();
    const other = await signedInUser();
    await classify(workflow, subjects[0].id, 0, keen.token);
    await classify(workflow, subjects[0].id, 1, other.token);
    await classify(workflow, subjects[1].id, 0, keen.token);
    await drainPipeline();

    expect(await db().setMemberSubject.count({ where: { subjectSetId: expertSet.id } })).toBe(1);
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: expertSet.id } })).setMemberSubjectsCount).toBe(1);
    expect(await db().collectionSubject.findMany({ where: { collectionId: collection.id }, select: { subjectId: true } })).toEqual([
      { subjectId: subjects[0].id },
    ]);
    const pref = await db().projectPreference.findUnique({ where: { userId_projectId: { userId: keen.user.id, projectId: project.id } } });
    expect((pref?.settings as { workflow_id?: string })?.workflow_id).toBe(String(expertWorkflow.id));
    expect(
      await db().projectPreference.findUnique({ where: { userId_projectId: { userId: other.user.id, projectId: project.id } } }),
    ).toBeNull();
    const actions = await engine.get(`/workflows/${workflow.id}/actions?status=completed`, owner.token);
    expect(actions.body.map((a: { effect_type: string }) => a.effect_type).sort()).toEqual([
      "add_subject_to_collection",
      "add_subject_to_set",
      "promote_user",
    ]);
  });

  it("records an effect whose target is gone as failed, with its error", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(1);
    const { set: gone } = await createSubjectSet(project.id, 0);
    const saved = await engine.post(
      "/workflows",
      {
        workflow: {
          id: workflow.id,
          extractors_config: { q: { type: "question", task_key: "T0" } },
          reducers_config: { c: { type: "count" } },
          rules_config: [{ if: ["const", true], then: [{ action: "add_subject_to_set", subject_set_id: String(gone.id) }] }],
        },
      },
      owner.token,
    );
    expect(saved.status).toBe(201);
    await db().subjectSet.delete({ where: { id: gone.id } });
    await classify(workflow, subjects[0].id, 0, (await signedInUser()).token);
    await drainPipeline();
    const actions = await engine.get(`/workflows/${workflow.id}/actions?status=failed`, owner.token);
    expect(actions.body).toHaveLength(1);
    expect(actions.body[0].error).toMatch(new RegExp(`subject set ${gone.id} is not a subject set of this project`));
  });
});

describe("engine HTTP API: ingest, extracts and reductions", () => {
  it("ingests forwarded classifications (grouped annotations, batches) and runs them through", async () => {
    const { owner, workflow, subjects } = await classifiableProject(1);
    await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id) }, owner.token);
    const base = 2_000_000_000 - workflow.id * 10;
    const one = (i: number) => ({
      id: base + i,
      project_id: workflow.projectId,
      workflow_id: workflow.id,
      subject_id: subjects[0].id,
      user_id: null,
      workflow_version: "1.1",
      annotations: { T0: [{ task: "T0", value: 1 }] },
      metadata: { started_at: new Date().toISOString() },
    });
    const single = await engine.post("/classifications", one(0), owner.token);
    expect(single.status).toBe(202);
    const batch = await engine.post("/classifications", [one(1), one(2)], owner.token);
    expect(batch.status).toBe(202);
    expect(batch.body).toEqual({ queued: 2 });
    await drainPipeline();
    expect(await db().extract.count({ where: { workflowId: workflow.id } })).toBe(3);
    expect(await retiredAt(subjects[0].id, workflow.id)).not.toBeNull();

    // The same classification twice in one batch: stored once, the later copy wins.
    const twice = await engine.post(
      "/classifications",
      [one(3), { ...one(3), annotations: { T0: [{ task: "T0", value: 0 }] } }],
      owner.token,
    );
    expect(twice.status).toBe(202);
    await drainUntil(async () => (await db().extract.count({ where: { workflowId: workflow.id } })) === 4);
    expect((await db().extract.findFirstOrThrow({ where: { classificationId: base + 3 } })).data).toEqual({ "0": 1 });

    expect((await engine.post("/classifications", [{ id: 5 }], owner.token)).status).toBe(422);
    const huge = await engine.post("/classifications", { ...one(4), id: "9999999999" }, owner.token);
    expect(huge.status).toBe(422);
    expect(huge.body.errors[0].message).toMatch(/2147483647/);
    expect((await engine.post("/classifications", one(3), (await signedInUser()).token)).status).toBe(403);
    expect((await engine.post("/classifications", one(3))).status).toBe(401);
  });

  it("stores reductions posted by an external process and acts on them", async () => {
    const { owner, workflow, subjects } = await classifiableProject(1);
    await engine.post(
      "/workflows",
      {
        workflow: {
          id: workflow.id,
          reducers_config: { ml: { type: "external", url: "https://reducer.example.org" } },
          rules_config: [
            { if: ["gt", ["lookup", "ml.likelihood", 0], ["const", 0.9]], then: [{ action: "retire_subject", reason: "other" }] },
          ],
        },
      },
      owner.token,
    );
    const low = await engine.post(
      `/workflows/${workflow.id}/reducers/ml/reductions?subject_id=${subjects[0].id}`,
      { likelihood: 0.5, flagged: false },
      owner.token,
    );
    expect(low.status).toBe(200);
    expect(low.body).toMatchObject({
      reducer_key: "ml",
      subject_id: subjects[0].id,
      subgroup: "_default",
      data: { likelihood: 0.5, flagged: false },
    });
    await drainPipeline();
    expect(await retiredAt(subjects[0].id, workflow.id)).toBeNull();
    await engine.post(
      `/workflows/${workflow.id}/reducers/ml/reductions`,
      { subject_id: subjects[0].id, data: { likelihood: 0.95 } },
      owner.token,
    );
    await drainPipeline();
    expect(await retiredAt(subjects[0].id, workflow.id)).not.toBeNull();
    const got = await engine.get(`/workflows/${workflow.id}/reducers/ml/reductions?subject_id=${subjects[0].id}`, owner.token);
    expect(got.body).toHaveLength(1);
    expect(got.body[0].data).toEqual({ likelihood: 0.95 });

    expect((await engine.get(`/workflows/${workflow.id}/reducers/ml/reductions`, owner.token)).status).toBe(422);
    expect((await engine.post(`/workflows/${workflow.id}/reducers/nope/reductions?subject_id=1`, { a: 1 }, owner.token)).status).toBe(404);
    expect((await engine.get(`/workflows/${workflow.id}/extractors/q/extracts`, owner.token)).status).toBe(422);
  });
});

/** The workflow of each forwarded classification stored below: a forwarded id means something only within its workflow. */
const forwardedWorkflow = new Map<number, number>();
/** Forwarded classifications stored straight into the engine's table (not handed to the inbox): the test runs their batch itself. */
async function storeForwarded(rows: { id: number; workflow_id: number; subject_id: number; answer: number; created_at?: string }[]) {
  const data = rows.map(({ answer, ...r }) => ({
    ...r,
    user_id: null,
    workflow_version: "1.1",
    annotations: [{ task: "T0", value: answer }],
    metadata: {},
  }));
  await db().$executeRawUnsafe(
    `INSERT INTO engine_classifications (id, workflow_id, data) SELECT * FROM unnest($1::int[], $2::int[], $3::jsonb[])`,
    rows.map((r) => r.id),
    rows.map((r) => r.workflow_id),
    data.map((d) => JSON.stringify(d)),
  );
  for (const r of rows) forwardedWorkflow.set(r.id, r.workflow_id);
  return rows.map((r) => r.id);
}
const workflowsOf = (ids: number[]) => ids.map((id) => forwardedWorkflow.get(id)!);
/** A batch in the engine's own transaction, as an inbox consumer runs it (without taking it from the shared inbox). */
const runBatch = (ids: number[]) =>
  queueTx((tx, emit) =>
    extractClassifications(
      tx,
      emit,
      ids.map((id) => ({ id, workflowId: forwardedWorkflow.get(id)! })),
    ),
  );
/** The Inngest dispatcher's job for a batch, run while no Inngest server is configured. */
const runBatchJob = (ids: number[]) => classificationBatch({ classification_ids: ids, workflow_ids: workflowsOf(ids) });
/** The built-in queue's own way: the classifications wait in the inbox, and a consumer takes them in its transaction. */
const runFromInbox = async (ids: number[]) => {
  await db().$executeRawUnsafe(
    `INSERT INTO engine_inbox (classification_id, workflow_id) SELECT * FROM unnest($1::int[], $2::int[])`,
    ids,
    workflowsOf(ids),
  );
  while ((await processEngineInbox()) > 0);
};

describe("engine plumbing", () => {
  it("carries a batch of classifications through in one job, reducing each subject once", async () => {
    const { owner, workflow, subjects } = await classifiableProject(2);
    await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id) }, owner.token);
    const [a, b] = subjects.map((s) => s.id);
    const base = 1_900_000_000 - workflow.id * 10;
    const ids = await storeForwarded([
      { id: base, workflow_id: workflow.id, subject_id: a, answer: 1 },
      { id: base + 1, workflow_id: workflow.id, subject_id: b, answer: 0 },
      { id: base + 2, workflow_id: workflow.id, subject_id: a, answer: 1 },
      { id: base + 3, workflow_id: workflow.id, subject_id: a, answer: 1 },
    ]);
    await runBatch(ids);
    const reductions = await db().subjectReduction.findMany({
      where: { workflowId: workflow.id },
      orderBy: [{ subjectId: "asc" }, { reducerKey: "asc" }],
    });
    // lock_version 0: each reduction was saved once for the whole burst, not once per classification.
    expect(reductions.map((r) => [r.subjectId, r.reducerKey, r.data, r.lockVersion])).toEqual([
      [a, "c", { most_likely: "1", num_votes: 3, agreement: 1 }, 0],
      [a, "n", { classifications: 3, extracts: 3 }, 0],
      [b, "c", { most_likely: "0", num_votes: 1, agreement: 1 }, 0],
      [b, "n", { classifications: 1, extracts: 1 }, 0],
    ]);
    expect(await retiredAt(a, workflow.id)).not.toBeNull();
    expect(await retiredAt(b, workflow.id)).toBeNull();
    const actions = await engine.get(`/workflows/${workflow.id}/actions`, owner.token);
    expect(actions.body.map((x: { subject_id: number; status: string }) => [x.subject_id, x.status])).toEqual([[a, "completed"]]);

    // The same batch again (a retried job): nothing changes but the reductions' versions.
    await runBatch(ids);
    expect(await db().extract.count({ where: { workflowId: workflow.id } })).toBe(4);
    const again = await db().subjectReduction.findMany({
      where: { workflowId: workflow.id },
      orderBy: [{ subjectId: "asc" }, { reducerKey: "asc" }],
    });
    expect(again.map((r) => r.data)).toEqual(reductions.map((r) => r.data));
    expect(await db().engineAction.count({ where: { workflowId: workflow.id } })).toBe(1);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).retiredSetMemberSubjectsCount).toBe(1);
  });

  it("runs concurrent batches over the same subjects without deadlocks, lost votes or double retirements", async () => {
    const { owner, workflow, subjects } = await classifiableProject(6);
    await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id) }, owner.token);
    const base = 1_600_000_000 - workflow.id * 100;
    const ids = await storeForwarded(
      Array.from({ length: 60 }, (_, i) => ({ id: base + i, workflow_id: workflow.id, subject_id: subjects[i % 6].id, answer: 1 })),
    );
    // Six batches, each touching every subject, all at once: each reduces, evaluates and retires under
    // the others' feet.
    const batches = Array.from({ length: 6 }, (_, b) => ids.filter((_, i) => Math.floor(i / 10) === b));
    await Promise.all(batches.map((batch) => runBatch(batch)));

    // No batch failed (a deadlock would have re-queued its classifications one per job).
    const requeued = await db().$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       WHERE t.identifier = $1 AND (j.payload->>'classification_id')::int = ANY($2::int[])`,
      EVENTS.classificationReceived,
      ids,
    );
    expect(requeued[0].n).toBe(0);
    const counts = await db().subjectReduction.findMany({
      where: { workflowId: workflow.id, reducerKey: "n" },
      orderBy: { subjectId: "asc" },
    });
    expect(counts.map((r) => r.data)).toEqual(subjects.map(() => ({ classifications: 10, extracts: 10 })));
    const consensus = await db().subjectReduction.findMany({ where: { workflowId: workflow.id, reducerKey: "c" } });
    expect(consensus.map((r) => r.data)).toEqual(subjects.map(() => ({ most_likely: "1", num_votes: 10, agreement: 1 })));
    expect(await db().engineAction.count({ where: { workflowId: workflow.id, status: "completed" } })).toBe(6);
    expect(await db().engineAction.count({ where: { workflowId: workflow.id } })).toBe(6);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).retiredSetMemberSubjectsCount).toBe(6);
  });

  it.each([
    ["the inbox, taken in the engine's transaction", runFromInbox],
    ["a batch job found without Inngest, handed back to the inbox", (ids: number[]) => runBatchJob(ids).then(() => runFromInbox([]))],
  ])(
    "retries a failed batch from %s one classification per job, so one that cannot be processed holds up none of the others",
    async (_, run) => {
      const { owner, workflow, subjects } = await classifiableProject(2);
      await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id) }, owner.token);
      const base = 1_800_000_000 - workflow.id * 10;
      const ids = await storeForwarded([
        { id: base, workflow_id: workflow.id, subject_id: subjects[0].id, answer: 1 },
        // A stored row no forwarder could send (the route validates created_at): processing it throws.
        { id: base + 1, workflow_id: workflow.id, subject_id: subjects[0].id, answer: 1, created_at: "not a date" },
        { id: base + 2, workflow_id: workflow.id, subject_id: subjects[1].id, answer: 0 },
      ]);
      await run(ids);
      expect(await db().extract.count({ where: { workflowId: workflow.id } })).toBe(0); // the batch rolled back whole
      const waiting = await db().$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM engine_inbox WHERE classification_id = ANY($1::int[])`,
        ids,
      );
      expect(waiting[0].n).toBe(0); // out of the inbox: each is a job of its own now
      const jobsOf = () =>
        db().$queryRawUnsafe<{ id: string; classification_id: number; attempts: number; last_error: string | null }[]>(
          `SELECT j.id::text, (j.payload->>'classification_id')::int AS classification_id, j.attempts, j.last_error
         FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
         WHERE t.identifier = $1 AND (j.payload->>'classification_id')::int = ANY($2::int[]) ORDER BY 2`,
          EVENTS.classificationReceived,
          ids,
        );
      expect((await jobsOf()).map((j) => j.classification_id)).toEqual(ids);

      await drainUntil(async () => (await db().extract.count({ where: { workflowId: workflow.id } })) === 2);
      const extracts = await db().extract.findMany({ where: { workflowId: workflow.id }, orderBy: { classificationId: "asc" } });
      expect(extracts.map((e) => e.classificationId)).toEqual([base, base + 2]);
      // A job's attempts count up when a worker takes it, its last_error when that attempt has failed: wait for both.
      await drainUntil(async () => {
        const jobs = await jobsOf();
        return jobs.length === 1 && jobs[0].attempts > 0 && jobs[0].last_error !== null;
      });
      const [stuck] = await jobsOf();
      expect(stuck).toMatchObject({ classification_id: base + 1 });
      expect(stuck.last_error).toMatch(/Invalid time value/);
      await db().$executeRawUnsafe(`SELECT graphile_worker.complete_jobs(ARRAY[$1::bigint])`, stuck.id);
    },
  );

  it("coalesces a burst of posted extracts for one subject into one pending reduction", async () => {
    const { owner, workflow, subjects } = await classifiableProject(1);
    await engine.post("/workflows", { workflow: retireOnConsensus(workflow.id) }, owner.token);
    for (let i = 0; i < 5; i++) {
      const res = await engine.post(
        `/workflows/${workflow.id}/extractors/q/extracts`,
        {
          subject_id: subjects[0].id,
          classification_id: 700_000 + workflow.id * 10 + i,
          classification_at: new Date(Date.now() + i).toISOString(),
          data: { "1": 1 },
        },
        owner.token,
      );
      expect(res.status).toBe(200);
    }
    const pending = await db().$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = $1`,
      `x:${workflow.id}:subject:${subjects[0].id}`,
    );
    expect(pending[0].n).toBe(1);
    await drainPipeline();
    const n = await engine.get(`/workflows/${workflow.id}/reducers/n/reductions?subject_id=${subjects[0].id}`, owner.token);
    expect(n.body[0].data).toEqual({ classifications: 5, extracts: 5 });
    expect(await retiredAt(subjects[0].id, workflow.id)).not.toBeNull();
  });

  it("caches subject metadata on first sight; an admin refresh re-reads it", async () => {
    const { owner, workflow, subjects } = await classifiableProject(1);
    await engine.post(
      "/workflows",
      {
        workflow: {
          id: workflow.id,
          extractors_config: { q: { type: "question", task_key: "T0" } },
          reducers_config: { c: { type: "count" } },
          rules_config: [
            { if: ["eq", ["lookup", "subject.kind", ""], ["const", "hard"]], then: [{ action: "retire_subject", reason: "other" }] },
          ],
        },
      },
      owner.token,
    );
    await classify(workflow, subjects[0].id, 0, (await signedInUser()).token);
    await drainPipeline();
    expect((await db().engineSubject.findUniqueOrThrow({ where: { space_id: { space: 0, id: subjects[0].id } } })).metadata).toEqual({
      n: "0",
    });
    await db().subject.update({ where: { id: subjects[0].id }, data: { metadata: { n: "0", kind: "hard" } } });
    await classify(workflow, subjects[0].id, 0, (await signedInUser()).token);
    await drainPipeline();
    expect(await retiredAt(subjects[0].id, workflow.id)).toBeNull(); // the cache still says nothing of "kind"

    expect((await engine.post(`/workflows/${workflow.id}/refresh_subject_metadata`, {}, owner.token)).status).toBe(403);
    const admin = await signedInUser({ admin: true });
    const refreshed = await engine.post(`/workflows/${workflow.id}/refresh_subject_metadata`, {}, admin.token);
    expect(refreshed.body).toEqual({ refreshed: 1 });
    await classify(workflow, subjects[0].id, 0, (await signedInUser()).token);
    await drainPipeline();
    expect(await retiredAt(subjects[0].id, workflow.id)).not.toBeNull();
  });

  it("serves the Inngest functions at /inngest when an Inngest server is configured, else 404", async () => {
    const { call } = await import("@/test/http");
    const off = await call("GET", "/inngest", { accept: "application/json" });
    expect(off.status).toBe(404);
    expect(off.body.errors[0].message).toMatch(/No Inngest server/);
    process.env.INNGEST_DEV = "1";
    try {
      const on = await call("GET", "/inngest", { accept: "application/json" });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ function_count: 7 });
    } finally {
      delete process.env.INNGEST_DEV;
    }
  });
});
