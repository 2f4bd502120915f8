import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { foldClassificationCounts } from "./fold-classification-counts";
import { api, call } from "@/test/http";
import { classifiableProject, classificationBody, grantProjectRole, signedInUser } from "@/test/factories";
import { scopedToken, TOKEN_CASES, type TokenCase } from "@/test/token-cases";

const counters = async (projectId: number, workflowId: number) => {
  await foldClassificationCounts();
  const p = await db().project.findUniqueOrThrow({ where: { id: projectId } });
  const w = await db().workflow.findUniqueOrThrow({ where: { id: workflowId } });
  return {
    project: p.classificationsCount,
    workflow: w.classificationsCount,
    retired: w.retiredSetMemberSubjectsCount,
    projectRetired: p.retiredSubjectsCount,
  };
};

describe("POST /api/classifications", () => {
  it("creates a classification, answers 201 with the record and counts it", async () => {
    const { workflow, project, subjects } = await classifiableProject(3);
    const volunteer = await signedInUser();
    const res = await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: volunteer.token });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBeTruthy();
    const c = res.body.classifications[0];
    expect(c).toMatchObject({
      completed: true,
      workflow_version: "1.1",
      links: {
        project: String(project.id),
        workflow: String(workflow.id),
        user: String(volunteer.user.id),
        subjects: [String(subjects[0].id)],
      },
    });
    expect(c.metadata.seen_before).toBeUndefined();
    expect(await counters(project.id, workflow.id)).toMatchObject({ project: 1, workflow: 1 });
    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[0].id, workflowId: workflow.id } },
    });
    expect(sws.classificationsCount).toBe(1);
    const seen = await db().userSeenSubject.count({ where: { userId: volunteer.user.id, workflowId: workflow.id } });
    expect(seen).toBe(1);
    // The workflow has no engine configuration: the engine is not handed it (engine-inbox.int.test.ts
    // covers configured workflows).
    const inbox = await db().$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM engine_inbox WHERE classification_id = $1`,
      Number(c.id),
    );
    expect(inbox[0].n).toBe(0);
  });

  it("records seen_before and does not count a repeat toward retirement", async () => {
    const { workflow, project, subjects } = await classifiableProject(1);
    const volunteer = await signedInUser();
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: volunteer.token });
    const again = await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: volunteer.token });
    expect(again.status).toBe(201);
    expect(again.body.classifications[0].metadata.seen_before).toBe(true);
    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[0].id, workflowId: workflow.id } },
    });
    expect(sws.classificationsCount).toBe(1);
    expect(await counters(project.id, workflow.id)).toMatchObject({ project: 2, workflow: 2 });
  });

  it("retires a subject when it reaches the retirement count (default 15, or options.count)", async () => {
    const { workflow, project, subjects } = await classifiableProject(2, {
      retirement: { criteria: "classification_count", options: { count: 3 } },
    });
    for (let i = 0; i < 3; i++) {
      const v = await signedInUser();
      await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: v.token });
    }
    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[0].id, workflowId: workflow.id } },
    });
    expect(sws.retiredAt).not.toBeNull();
    expect(sws.retirementReason).toBe("classification_count");
    expect(await counters(project.id, workflow.id)).toEqual({ project: 3, workflow: 3, retired: 1, projectRetired: 1 });
    // A fourth classification does not retire it again.
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: (await signedInUser()).token });
    expect((await counters(project.id, workflow.id)).retired).toBe(1);
  });

  it("never retires under never_retire; anonymous classifications always count", async () => {
    const { workflow, subjects } = await classifiableProject(1, { retirement: { criteria: "never_retire" } });
    for (let i = 0; i < 20; i++)
      expect((await api.post("/classifications", classificationBody(workflow, [subjects[0].id]))).status).toBe(201);
    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[0].id, workflowId: workflow.id } },
    });
    expect(sws.classificationsCount).toBe(20);
    expect(sws.retiredAt).toBeNull();
  });

  it("rejects bad classifications with a 4xx JSON error and stores nothing", async () => {
    const { workflow, project, subjects } = await classifiableProject(1);
    const { subjects: foreign } = await classifiableProject(1);
    const v = await signedInUser();
    const body = classificationBody(workflow, [subjects[0].id]);
    const c = body.classifications;
    const cases: [string, unknown, number, string?][] = [
      ["missing metadata key", { classifications: { ...c, metadata: { ...c.metadata, user_agent: undefined } } }, 422],
      [
        "workflow_version newer than the workflow's",
        { classifications: { ...c, metadata: { ...c.metadata, workflow_version: "9.9" } } },
        422,
      ],
      ["workflow_version not a version", { classifications: { ...c, metadata: { ...c.metadata, workflow_version: "latest" } } }, 422],
      ["no annotations", { classifications: { ...c, annotations: undefined } }, 422],
      ["annotation without task", { classifications: { ...c, annotations: [{ value: 1 }] } }, 422],
      ["no subjects", { classifications: { ...c, links: { ...c.links, subjects: [] } } }, 422],
      ["foreign subject", { classifications: { ...c, links: { ...c.links, subjects: [String(foreign[0].id)] } } }, 422],
      ["bad subject id", { classifications: { ...c, links: { ...c.links, subjects: ["abc"] } } }, 422],
      ["project mismatch", { classifications: { ...c, links: { ...c.links, project: String(foreign[0].projectId) } } }, 422],
      ["unknown workflow", { classifications: { ...c, links: { ...c.links, workflow: "99999999" } } }, 422],
      ["unknown root key", { ...body, extra: true }, 422],
      ["unknown attribute", { classifications: { ...c, rating: 5 } }, 422],
      ["gold standard by a volunteer", { classifications: { ...c, gold_standard: true } }, 403],
      [
        "a NUL character in an annotation (jsonb cannot hold it)",
        { classifications: { ...c, annotations: [{ task: "T0", value: "a\u0000b" }] } },
        422,
      ],
    ];
    for (const [name, b, status] of cases) {
      const res = await api.post("/classifications", JSON.parse(JSON.stringify(b)), { token: v.token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toBeTruthy();
    }
    for (const key of ["has space", "", "x".repeat(256), "tab\there"]) {
      const res = await call("POST", "/api/classifications", { body, token: v.token, headers: { "idempotency-key": key } });
      expect(res.status, `Idempotency-Key ${JSON.stringify(key)}`).toBe(422);
      expect(res.body.errors[0].message).toMatch(/Idempotency-Key/);
    }
    const anonIncomplete = await api.post("/classifications", classificationBody(workflow, [subjects[0].id], { completed: false }));
    expect(anonIncomplete.status).toBe(422);
    expect((await call("POST", "/api/classifications", { raw: "{oops", token: v.token })).status).toBe(400);
    expect(await db().classification.count({ where: { workflowId: workflow.id } })).toBe(0);
    expect(await counters(project.id, workflow.id)).toMatchObject({ project: 0, workflow: 0 });
    expect(await db().userSeenSubject.count({ where: { workflowId: workflow.id } })).toBe(0);
  });

  it("stores a classification made on an older version of the workflow, with the version it names", async () => {
    const { workflow, subjects } = await classifiableProject(1);
    await db().workflow.update({ where: { id: workflow.id }, data: { majorVersion: 3, minorVersion: 2 } });
    const v = await signedInUser();
    for (const [named, status] of [
      ["1.1", 201],
      ["3.1", 201],
      ["2.9", 201],
      ["3.2", 201],
      ["3.3", 422],
      ["4.0", 422],
    ] as const) {
      const body = classificationBody(workflow, [subjects[0].id]);
      body.classifications.metadata.workflow_version = named;
      const res = await api.post("/classifications", body, { token: v.token });
      expect(res.status, named).toBe(status);
      if (status === 201) expect(res.body.classifications[0].workflow_version).toBe(named);
    }
    expect(
      (await db().classification.findMany({ where: { workflowId: workflow.id }, orderBy: { id: "asc" } })).map((c) => c.workflowVersion),
    ).toEqual(["1.1", "3.1", "2.9", "3.2"]);
  });

  it("stores a classification once per Idempotency-Key and owner, however often and however concurrently it is sent", async () => {
    const { workflow, project, subjects } = await classifiableProject(2);
    const [v, other] = [await signedInUser(), await signedInUser()];
    const body = classificationBody(workflow, [subjects[0].id]);
    const send = (token: string | undefined, key: string, b: unknown = body) =>
      call("POST", "/api/classifications", { body: b, token, headers: { "idempotency-key": key } });
    const first = await send(v.token, "key-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await send(v.token, "key-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.classifications[0].id).toBe(first.body.classifications[0].id);
    expect(again.body.classifications[0].metadata.seen_before).toBeUndefined();
    // Concurrent repeats of a new key (a browser and its retry racing): one row.
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => send(v.token, "key-2", classificationBody(workflow, [subjects[1].id]))),
    );
    expect(racing.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(racing.map((r) => r.body.classifications[0].id)).size).toBe(1);
    // The same key from another volunteer, and from anonymous volunteers (one owner: "anonymous").
    expect((await send(other.token, "key-1")).headers.get("idempotent-replayed")).toBeNull();
    const anon = [await send(undefined, "key-1"), await send(undefined, "key-1")];
    expect(anon.map((r) => r.headers.get("idempotent-replayed"))).toEqual([null, "true"]);
    // A key names one classification: reused for another subject it is refused.
    const reused = await send(v.token, "key-1", classificationBody(workflow, [subjects[1].id]));
    expect(reused.status).toBe(422);
    expect(reused.body.errors[0].message).toMatch(/Idempotency-Key was already used/);
    // Stored and counted once each: v's two, other's one, anonymous one.
    expect(await db().classification.count({ where: { workflowId: workflow.id } })).toBe(4);
    expect(await counters(project.id, workflow.id)).toMatchObject({ project: 4, workflow: 4 });
    const sws = await db().subjectWorkflowStatus.findMany({ where: { workflowId: workflow.id }, orderBy: { subjectId: "asc" } });
    expect(sws.map((s) => s.classificationsCount)).toEqual([3, 1]);
  });

  it("an anonymous key replays only the request that stored it: another anonymous client with the same key stores its own and never sees the first's", async () => {
    const { workflow, project, subjects } = await classifiableProject(1);
    const mine = classificationBody(workflow, [subjects[0].id]);
    const theirs = {
      classifications: { ...mine.classifications, metadata: { ...mine.classifications.metadata, user_agent: "someone else" } },
    };
    const send = (b: unknown) => call("POST", "/api/classifications", { body: b, headers: { "idempotency-key": "shared-key" } });
    const first = await send(mine);
    const other = await send(theirs);
    expect([first.status, other.status]).toEqual([201, 201]);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(other.body.classifications[0].id).not.toBe(first.body.classifications[0].id);
    expect(other.body.classifications[0].metadata.user_agent).toBe("someone else");
    // Each client's retry is answered its own classification, stored once.
    const [mineAgain, theirsAgain] = [await send(mine), await send(theirs)];
    expect(mineAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(mineAgain.body.classifications[0].id).toBe(first.body.classifications[0].id);
    expect(theirsAgain.body.classifications[0].id).toBe(other.body.classifications[0].id);
    expect(await counters(project.id, workflow.id)).toMatchObject({ project: 2, workflow: 2 });
  });

  it("allows gold standard classifications to experts and editors", async () => {
    const { workflow, project, subjects, owner } = await classifiableProject(1);
    const expert = await signedInUser();
    await grantProjectRole(project.id, expert.user.id, ["expert"]);
    for (const token of [expert.token, owner.token]) {
      const res = await api.post("/classifications", classificationBody(workflow, [subjects[0].id], { gold_standard: true }), { token });
      expect(res.status).toBe(201);
      expect(res.body.classifications[0].gold_standard).toBe(true);
    }
    const gold = await api.get(`/classifications/gold_standard?workflow_id=${workflow.id}`, { token: owner.token });
    expect(gold.body.classifications).toHaveLength(2);
    expect(
      (await api.get(`/classifications/gold_standard?workflow_id=${workflow.id}`, { token: expert.token })).body.classifications,
    ).toHaveLength(0);
  });

  it("does not let volunteers classify private projects they cannot see", async () => {
    const { workflow, subjects } = await classifiableProject(1, { private: true });
    const v = await signedInUser();
    expect((await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: v.token })).status).toBe(422);
  });
});

// The create checks a bearer token's grant inside its own statement: every way a token can be refused or
// change meaning since it was issued, answered as on every other route, with nothing stored.
describe("POST /api/classifications: who the token stands for, checked in the create's statement", () => {
  const cases: TokenCase[] = [
    ...TOKEN_CASES,
    {
      name: "a token without the classification scope",
      setup: (u) => scopedToken(u, ["public", "user"]),
      status: 403,
      error: /'classification' scope/,
    },
    {
      name: "a revoked token without the scope (401 before 403)",
      setup: (u) => scopedToken(u, ["public"], true),
      status: 401,
      error: /revoked/,
    },
    {
      name: "a private project, by a volunteer",
      private: true,
      setup: async (u) => `Bearer ${u.token}`,
      status: 422,
      error: /links.workflow/,
    },
  ];
  it.each(cases)("$name → $status", async ({ setup, status, error, private: priv }) => {
    const { workflow, subjects } = await classifiableProject(1, { private: priv });
    const u = await signedInUser();
    const authorization = await setup(u);
    const res = await call("POST", "/api/classifications", {
      body: classificationBody(workflow, [subjects[0].id]),
      headers: { authorization },
    });
    expect(res.status).toBe(status === "ok" ? 201 : status);
    const stored = await db().classification.findMany({ where: { workflowId: workflow.id } });
    if (status === "ok") {
      expect(res.body.classifications[0].links.user).toBe(String(u.user.id));
      expect(stored.map((c) => c.userId)).toEqual([u.user.id]);
    } else {
      expect(res.body.errors[0].message).toMatch(error!);
      expect(stored).toEqual([]);
      expect(await db().userSeenSubject.count({ where: { workflowId: workflow.id } })).toBe(0);
    }
  });
});

describe("classification lists and incomplete edits", () => {
  it("lists own complete (default and plain), own incomplete, and project classifications with last_id", async () => {
    const { workflow, project, subjects, owner } = await classifiableProject(3);
    const v = await signedInUser();
    const ids: number[] = [];
    for (const s of subjects)
      ids.push(
        Number((await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token })).body.classifications[0].id),
      );
    const inc = await api.post("/classifications", classificationBody(workflow, [subjects[0].id], { completed: false }), {
      token: v.token,
    });
    expect(inc.status).toBe(201);
    const list = async (path: string, token?: string) =>
      ((await api.get(path, { token })).body.classifications ?? []).map((c: { id: string }) => Number(c.id));
    expect((await list("/classifications", v.token)).sort()).toEqual(ids);
    expect((await list("/classifications/default", v.token)).sort()).toEqual(ids);
    expect(await list("/classifications/incomplete", v.token)).toEqual([Number(inc.body.classifications[0].id)]);
    expect(await list("/classifications", owner.token)).toEqual([]);
    expect((await list(`/classifications/project?project_id=${project.id}`, owner.token)).length).toBe(4);
    expect(await list(`/classifications/project?project_id=${project.id}&last_id=${ids[1]}&page_size=100`, owner.token)).toEqual([
      ids[2],
      Number(inc.body.classifications[0].id),
    ]);
    expect(await list(`/classifications/project?project_id=${project.id}`, v.token)).toEqual([]);
    expect((await api.get(`/classifications/project?last_id=5`, { token: owner.token })).status).toBe(422);
    // Show: the author and project editors; nobody else.
    expect((await api.get(`/classifications/${ids[0]}`, { token: v.token })).status).toBe(200);
    expect((await api.get(`/classifications/${ids[0]}`, { token: owner.token })).status).toBe(200);
    expect((await api.get(`/classifications/${ids[0]}`, { token: (await signedInUser()).token })).status).toBe(404);
    expect((await api.get(`/classifications/${ids[0]}`)).status).toBe(404);
  });

  it("edits and deletes only incomplete classifications (403 otherwise); completing one counts it", async () => {
    const { workflow, project, subjects } = await classifiableProject(2);
    const v = await signedInUser();
    const done = (await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: v.token })).body
      .classifications[0];
    const open = (
      await api.post("/classifications", classificationBody(workflow, [subjects[1].id], { completed: false }), { token: v.token })
    ).body.classifications[0];
    const tag = async (id: string) => (await api.get(`/classifications/${id}`, { token: v.token })).headers.get("etag")!;
    const annotations = [{ task: "T0", value: 1 }];
    expect(
      (
        await api.put(
          `/classifications/${done.id}`,
          { classifications: { annotations } },
          { token: v.token, headers: { "if-match": await tag(done.id) } },
        )
      ).status,
    ).toBe(403);
    expect((await api.delete(`/classifications/${done.id}`, { token: v.token, headers: { "if-match": await tag(done.id) } })).status).toBe(
      403,
    );
    expect(
      (
        await api.put(
          `/classifications/${open.id}`,
          { classifications: { completed: true } },
          { token: v.token, headers: { "if-match": await tag(open.id) } },
        )
      ).status,
    ).toBe(422);
    expect(await counters(project.id, workflow.id)).toMatchObject({ project: 1, workflow: 1 });
    const other = await signedInUser();
    expect(
      (
        await api.put(
          `/classifications/${open.id}`,
          { classifications: { annotations } },
          { token: other.token, headers: { "if-match": await tag(open.id) } },
        )
      ).status,
    ).toBe(404);
    const edited = await api.put(
      `/classifications/${open.id}`,
      { classifications: { annotations, completed: true } },
      { token: v.token, headers: { "if-match": await tag(open.id) } },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.classifications[0]).toMatchObject({ completed: true, annotations });
    expect(await counters(project.id, workflow.id)).toMatchObject({ project: 2, workflow: 2 });
    const third = (
      await api.post("/classifications", classificationBody(workflow, [subjects[0].id], { completed: false }), { token: v.token })
    ).body.classifications[0];
    expect(
      (await api.delete(`/classifications/${third.id}`, { token: v.token, headers: { "if-match": await tag(third.id) } })).status,
    ).toBe(204);
    expect((await api.get(`/classifications/${third.id}`, { token: v.token })).status).toBe(404);
  });

  it("completing one counts it as a create does: retirement and its counters, and no engine inbox row without an active engine", async () => {
    const { workflow, project, subjects } = await classifiableProject(1, {
      retirement: { criteria: "classification_count", options: { count: 2 } },
    });
    const first = await signedInUser();
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: first.token });
    const v = await signedInUser();
    const open = (
      await api.post("/classifications", classificationBody(workflow, [subjects[0].id], { completed: false }), { token: v.token })
    ).body.classifications[0];
    const tag = (await api.get(`/classifications/${open.id}`, { token: v.token })).headers.get("etag")!;
    const done = await api.put(
      `/classifications/${open.id}`,
      { classifications: { annotations: [{ task: "T0", value: 0 }], completed: true } },
      { token: v.token, headers: { "if-match": tag } },
    );
    expect(done.status).toBe(200);
    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[0].id, workflowId: workflow.id } },
    });
    expect(sws).toMatchObject({ classificationsCount: 2, retirementReason: "classification_count" });
    expect(sws.retiredAt).not.toBeNull();
    expect(await counters(project.id, workflow.id)).toEqual({ project: 2, workflow: 2, retired: 1, projectRetired: 1 });
    const inbox = await db().$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM engine_inbox WHERE classification_id = $1`,
      Number(open.id),
    );
    expect(inbox[0].n).toBe(0);
  });
});
