import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api, call } from "@/test/http";
import { TOKEN_CASES, type TokenCase } from "@/test/token-cases";
import { classifiableProject, classificationBody, createSubjectSet, createWorkflow, signedInUser } from "@/test/factories";
import { drawSetOrder, setChances, trainingCandidates } from "./subject-queue";

const queued = async (workflowId: number, token?: string, q = "") => api.get(`/subjects/queued?workflow_id=${workflowId}${q}`, { token });
const ids = (res: { body: { subjects: { id: string }[] } }) => res.body.subjects.map((s) => Number(s.id));

describe("set chances (pure)", () => {
  it.each([
    [
      "size by default",
      [
        { id: 1, size: 10 },
        { id: 2, size: 30 },
      ],
      undefined,
      undefined,
      { 1: 10, 2: 30 },
    ],
    [
      "workflow chances replace size",
      [
        { id: 1, size: 10 },
        { id: 2, size: 30 },
      ],
      { 1: 1, 2: 3 },
      undefined,
      { 1: 1, 2: 3 },
    ],
    [
      "0 excludes a set",
      [
        { id: 1, size: 10 },
        { id: 2, size: 30 },
      ],
      { 1: 0 },
      undefined,
      { 2: 30 },
    ],
    [
      "user overrides the workflow",
      [
        { id: 1, size: 10 },
        { id: 2, size: 30 },
      ],
      { 1: 0, 2: 1 },
      { 1: 5 },
      { 1: 5, 2: 1 },
    ],
    ["string chances", [{ id: 1, size: 10 }], { 1: "2" }, undefined, { 1: 2 }],
    ["negative and junk fall back", [{ id: 1, size: 10 }], { 1: -1 }, { 1: "x" }, { 1: 10 }],
    ["empty sets are skipped", [{ id: 1, size: 0 }], { 1: 5 }, undefined, {}],
  ])("%s", (_n, sets, wf, user, want) => {
    expect(Object.fromEntries(setChances(sets, wf as never, user as never).map((s) => [s.id, s.weight]))).toEqual(want);
  });

  it("draws sets in proportion to their weights", () => {
    const sets = [
      { id: 1, size: 1, weight: 1 },
      { id: 2, size: 1, weight: 3 },
    ];
    let seed = 1;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const firsts = Array.from({ length: 4000 }, () => drawSetOrder(sets, rand)[0].id);
    const share = firsts.filter((id) => id === 2).length / firsts.length;
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.8);
    expect(
      drawSetOrder(sets, rand)
        .map((s) => s.id)
        .sort(),
    ).toEqual([1, 2]);
  });
});

describe("training sets (pure)", () => {
  const sets = [{ id: 1 }, { id: 2 }, { id: 3 }];
  const cfg = { training_set_ids: [3], training_chances: [1, 1, 0.5, 0], training_default_chance: 0.1 };
  it.each([
    ["no training sets: every set", {}, 0, 0.0, [1, 2, 3], null],
    ["a new volunteer (chance 1): the training set", cfg, 0, 0.99, [3], true],
    ["after 2 seen (chance 0.5), a low draw: training", cfg, 2, 0.4, [3], true],
    ["after 2 seen (chance 0.5), a high draw: the others", cfg, 2, 0.6, [1, 2], false],
    ["after 3 seen (chance 0): the others", cfg, 3, 0.0, [1, 2], false],
    ["beyond the list: the default chance", cfg, 50, 0.05, [3], true],
    ["beyond the list, above the default", cfg, 50, 0.2, [1, 2], false],
    ["no default: never beyond the list", { training_set_ids: [3] }, 0, 0.0, [1, 2], false],
    ["ids as strings, as clients send them", { training_set_ids: ["3"], training_default_chance: "1" }, 0, 0.5, [3], true],
    ["a training set not linked: every set", { training_set_ids: [9], training_default_chance: 1 }, 0, 0.5, [1, 2, 3], null],
  ] as const)("%s", (_n, configuration, seen, draw, want, training) => {
    const got = trainingCandidates(sets, configuration as never, seen, () => draw);
    expect(got.sets.map((s) => s.id)).toEqual(want);
    expect(got.training).toBe(training);
  });
});

describe("GET /api/subjects/queued", () => {
  it("serves unseen, unretired subjects with the selection fields, 10 by default", async () => {
    const { workflow, subjects } = await classifiableProject(25);
    const v = await signedInUser();
    const res = await queued(workflow.id, v.token);
    expect(res.status).toBe(200);
    expect(res.body.subjects).toHaveLength(10);
    const s = res.body.subjects[0];
    expect(s).toMatchObject({
      retired: false,
      already_seen: false,
      finished_workflow: false,
      user_has_finished_workflow: false,
      selection_state: "normal",
    });
    expect(new Date(s.selected_at).getTime()).not.toBeNaN();
    expect(s.locations[0]["image/png"]).toMatch(/^https:/);
    expect(new Set(ids(res)).size).toBe(10);
    for (const id of ids(res)) expect(subjects.map((x) => x.id)).toContain(id);
    expect((await api.get(`/subjects?workflow_id=${workflow.id}&sort=queued&page_size=4`, { token: v.token })).body.subjects).toHaveLength(
      4,
    );
  });

  it("never serves seen or retired subjects while others remain, then falls back instead of running dry", async () => {
    const { workflow, subjects, owner } = await classifiableProject(6);
    const v = await signedInUser();
    for (const s of subjects.slice(0, 3)) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    await api.post(
      `/workflows/${workflow.id}/retired_subjects`,
      { subject_id: String(subjects[3].id), retirement_reason: "consensus" },
      { token: owner.token },
    );
    for (let i = 0; i < 5; i++) expect(ids(await queued(workflow.id, v.token)).sort()).toEqual([subjects[4].id, subjects[5].id].sort());
    for (const s of subjects.slice(4)) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    const fallback = await queued(workflow.id, v.token);
    expect(fallback.status).toBe(200);
    expect(fallback.body.subjects.length).toBeGreaterThan(0);
    for (const s of fallback.body.subjects) {
      expect(s.selection_state).toBe("internal_fallback");
      expect(s.user_has_finished_workflow).toBe(true);
      expect(s.finished_workflow).toBe(false);
    }
    // Unretired seen subjects come before the retired one.
    expect(fallback.body.subjects.slice(0, 5).every((s: { retired: boolean }) => !s.retired)).toBe(true);
  });

  it("gives anonymous volunteers unretired subjects", async () => {
    const { workflow, subjects, owner } = await classifiableProject(3);
    await api.post(
      `/workflows/${workflow.id}/retired_subjects`,
      { subject_ids: [subjects[0].id, subjects[1].id], retirement_reason: "other" },
      { token: owner.token },
    );
    for (let i = 0; i < 3; i++) expect(ids(await queued(workflow.id))).toEqual([subjects[2].id]);
  });

  it("honours set chances: 0 excludes a set, a user's designator preference opens it for that user", async () => {
    const owner = await signedInUser();
    const { createProject } = await import("@/test/factories");
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id);
    const { set: general, subjects: generalSubjects } = await createSubjectSet(project.id, 5, { workflowIds: [workflow.id] });
    const { set: expert, subjects: expertSubjects } = await createSubjectSet(project.id, 5, { workflowIds: [workflow.id] });
    await db().workflow.update({
      where: { id: workflow.id },
      data: { configuration: { subject_set_chances: { [expert.id]: 0, [general.id]: 1 } } },
    });
    const volunteer = await signedInUser();
    const specialist = await signedInUser();
    await db().projectPreference.create({
      data: {
        userId: specialist.user.id,
        projectId: project.id,
        settings: { designator: { subject_set_chances: { [workflow.id]: { [expert.id]: 1, [general.id]: 0 } } } },
      },
    });
    for (let i = 0; i < 3; i++) {
      for (const id of ids(await queued(workflow.id, volunteer.token))) expect(generalSubjects.map((s) => s.id)).toContain(id);
      for (const id of ids(await queued(workflow.id, specialist.token))) expect(expertSubjects.map((s) => s.id)).toContain(id);
    }
    expect(ids(await queued(workflow.id, volunteer.token, `&subject_set_id=${general.id}`)).length).toBe(5);
    expect((await queued(workflow.id, volunteer.token, "&subject_set_id=99999999")).status).toBe(404);
  });

  it("serves training subjects to new volunteers by the workflow's training chances, then the others", async () => {
    const owner = await signedInUser();
    const { createProject } = await import("@/test/factories");
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id);
    const { subjects: realSubjects } = await createSubjectSet(project.id, 6, { workflowIds: [workflow.id] });
    const { set: training, subjects: trainingSubjects } = await createSubjectSet(project.id, 6, { workflowIds: [workflow.id] });
    await db().workflow.update({
      where: { id: workflow.id },
      data: { configuration: { training_set_ids: [training.id], training_chances: [1, 1], training_default_chance: 0 } },
    });
    const volunteer = await signedInUser();
    const first = ids(await queued(workflow.id, volunteer.token));
    expect(first.length).toBeGreaterThan(0);
    for (const id of first) expect(trainingSubjects.map((s) => s.id)).toContain(id);
    // Two seen: the chance is now the default (0), so only real subjects come.
    await db().userSeenSubject.createMany({
      data: trainingSubjects.slice(0, 2).map((s) => ({ userId: volunteer.user.id, workflowId: workflow.id, subjectId: s.id })),
    });
    for (const id of ids(await queued(workflow.id, volunteer.token))) expect(realSubjects.map((s) => s.id)).toContain(id);
    // A subject set asked for by name is served as it is.
    for (const id of ids(await queued(workflow.id, volunteer.token, `&subject_set_id=${training.id}`)))
      expect(trainingSubjects.map((s) => s.id)).toContain(id);
  });

  it("serves prioritized workflows in #priority order", async () => {
    const owner = await signedInUser();
    const { createProject } = await import("@/test/factories");
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id, { prioritized: true });
    const { subjects } = await createSubjectSet(project.id, 6, {
      workflowIds: [workflow.id],
      metadata: (i) => ({ "#priority": String(6 - i) }),
    });
    const v = await signedInUser();
    const got = ids(await queued(workflow.id, v.token, "&page_size=3"));
    expect(got).toEqual([subjects[5].id, subjects[4].id, subjects[3].id]);
  });

  it("answers 422 without workflow_id, 404 for unknown or private workflows and workflows without sets", async () => {
    const v = await signedInUser();
    expect((await api.get("/subjects/queued", { token: v.token })).status).toBe(422);
    expect((await queued(99999999, v.token)).status).toBe(404);
    expect((await api.get("/subjects/queued?workflow_id=abc", { token: v.token })).status).toBe(422);
    const { workflow } = await classifiableProject(2, { private: true });
    expect((await queued(workflow.id, v.token)).status).toBe(404);
    const { project } = await classifiableProject(0);
    const bare = await createWorkflow(project.id);
    expect((await queued(bare.id, v.token)).status).toBe(404);
  });
});

describe("retirement endpoints", () => {
  it("retire, unretire and /subjects/retire keep counters exact and validate reasons", async () => {
    const { workflow, project, subjects, owner } = await classifiableProject(4);
    const count = async () => {
      const w = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
      const p = await db().project.findUniqueOrThrow({ where: { id: project.id } });
      return [w.retiredSetMemberSubjectsCount, p.retiredSubjectsCount];
    };
    const post = (path: string, body: object, token = owner.token) => api.post(path, body, { token });
    expect(
      (
        await post(`/workflows/${workflow.id}/retired_subjects`, {
          subject_ids: [subjects[0].id, subjects[1].id],
          retirement_reason: "blank",
        })
      ).status,
    ).toBe(204);
    expect(await count()).toEqual([2, 2]);
    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[0].id, workflowId: workflow.id } },
    });
    expect(sws.retirementReason).toBe("nothing_here");
    expect(
      (await post(`/workflows/${workflow.id}/retired_subjects`, { subject_id: subjects[0].id, retirement_reason: "consensus" })).status,
    ).toBe(204);
    expect(await count()).toEqual([2, 2]);
    expect(
      (await post("/subjects/retire", { workflow_id: workflow.id, subject_id: String(subjects[2].id), retirement_reason: "consensus" }))
        .status,
    ).toBe(204);
    expect(await count()).toEqual([3, 3]);
    expect((await post(`/workflows/${workflow.id}/unretire_subjects`, { subject_ids: [subjects[0].id, subjects[3].id] })).status).toBe(204);
    expect(await count()).toEqual([2, 2]);

    const v = await signedInUser();
    const bad: [string, object, number, string?][] = [
      [`/workflows/${workflow.id}/retired_subjects`, { subject_id: subjects[3].id, retirement_reason: "bored" }, 422],
      [`/workflows/${workflow.id}/retired_subjects`, { retirement_reason: "other" }, 422],
      [`/workflows/${workflow.id}/retired_subjects`, { subject_id: 99999999 }, 422],
      [`/workflows/${workflow.id}/retired_subjects`, { subject_id: subjects[3].id, extra: 1 }, 422],
      ["/subjects/retire", { subject_id: subjects[3].id }, 422],
      [`/workflows/${workflow.id}/retired_subjects`, { subject_id: subjects[3].id }, 403, v.token],
      [`/workflows/99999999/retired_subjects`, { subject_id: subjects[3].id }, 404],
    ];
    for (const [path, body, status, token] of bad)
      expect((await post(path, body, token ?? owner.token)).status, `${path} ${JSON.stringify(body)}`).toBe(status);
    expect((await api.post(`/workflows/${workflow.id}/retired_subjects`, { subject_id: subjects[3].id })).status).toBe(401);
    expect(await count()).toEqual([2, 2]);
  });
});

// The queue checks a bearer token's grant in its first query: answered as on every other route.
describe("GET /api/subjects/queued: who the token stands for, checked in the queue's query", () => {
  const cases: TokenCase[] = [
    ...TOKEN_CASES,
    {
      name: "a private project, by a volunteer",
      private: true,
      setup: async (u) => `Bearer ${u.token}`,
      status: 404,
      error: /Could not find workflows/,
    },
  ];
  it.each(cases)("$name → $status", async ({ setup, status, error, private: priv }) => {
    const { workflow, subjects } = await classifiableProject(2, { private: priv });
    const u = await signedInUser();
    const authorization = await setup(u);
    const res = await call("GET", `/api/subjects/queued?workflow_id=${workflow.id}`, { headers: { authorization } });
    expect(res.status).toBe(status === "ok" ? 200 : status);
    if (status === "ok") expect(ids(res).sort()).toEqual(subjects.map((s) => s.id).sort());
    else expect(res.body.errors[0].message).toMatch(error!);
  });

  it("a revoked token is refused even for a workflow that does not exist (the token first)", async () => {
    const u = await signedInUser();
    const authorization = await TOKEN_CASES.find((c) => c.name === "a revoked token")!.setup(u);
    const res = await call("GET", `/api/subjects/queued?workflow_id=999999999`, { headers: { authorization } });
    expect(res.status).toBe(401);
  });
});
