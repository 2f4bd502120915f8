import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { engine } from "@/test/engine";
import { createProject, createWorkflow, grantProjectRole, signedInUser } from "@/test/factories";
import { referenceEngineConfig } from "@/lib/engine/reference-config";

// The configuration API: POST/PUT/GET /engine/workflows, validation on save, permissions.

async function ownedWorkflow(opts: { private?: boolean } = {}) {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id, { private: opts.private });
  const workflow = await createWorkflow(project.id);
  return { owner, project, workflow };
}

// Its user rule promotes onto the workflow itself: a promotion names a workflow of the same project.
const fullConfig = (id: number) => referenceEngineConfig(id, id);

describe("engine configuration API", () => {
  it("round-trips the reference configuration with defaults filled in", async () => {
    const { owner, workflow } = await ownedWorkflow();
    const created = await engine.post("/workflows", { workflow: fullConfig(workflow.id) }, owner.token);
    expect(created.status).toBe(201);
    const got = await engine.get(`/workflows/${workflow.id}`, owner.token);
    expect(got.status).toBe(200);
    const w = got.body.workflow;
    expect(w.id).toBe(workflow.id);
    expect(w.status).toBe("active");
    expect(Object.keys(w.extractors_config).sort()).toEqual(["f", "q", "s", "x"]);
    expect(w.extractors_config.q).toMatchObject({
      type: "question",
      task_key: "T0",
      if_missing: "ignore",
      minimum_workflow_version: "2.0",
    });
    expect(w.reducers_config.n).toMatchObject({ type: "count", reduction_mode: "running_reduction", topic: "reduce_by_subject" });
    expect(w.reducers_config.n.filters).toMatchObject({ repeated_classifications: "keep_first", from: 0, to: -1 });
    expect(w.rules_config).toHaveLength(2);
    expect(w.rules_config[0]).toMatchObject({
      topic: "subject",
      if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]],
      then: [{ action: "retire_subject", reason: "consensus" }],
    });
    expect(w.rules_config[1].then).toEqual([{ action: "promote_user", workflow_id: String(workflow.id) }]);
    expect(await db().engineExtractor.count({ where: { workflowId: workflow.id } })).toBe(4);
    expect(await db().engineRule.count({ where: { workflowId: workflow.id } })).toBe(2);
  });

  it("answers warnings beside a valid configuration (a rule reading a reducer that is not configured), and none otherwise", async () => {
    const { owner, workflow } = await ownedWorkflow();
    const created = await engine.post("/workflows", { workflow: fullConfig(workflow.id) }, owner.token);
    expect(created.status).toBe(201);
    expect(created.body.warnings).toBeUndefined();
    const rules = [{ if: ["gte", ["lookup", "gone.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject" }] }];
    const put = await engine.put(`/workflows/${workflow.id}`, { workflow: { rules_config: rules } }, owner.token);
    expect(put.status).toBe(200);
    expect(put.body.warnings).toEqual([
      "rules_config[0].if[1][1]: lookup 'gone.num_votes': 'gone' is not a configured reducer, so it always yields its default",
    ]);
    expect((await engine.get(`/workflows/${workflow.id}`, owner.token)).body.warnings).toHaveLength(1);
  });

  it("PUT replaces the keys it gives and keeps the rest; a second POST is refused", async () => {
    const { owner, workflow } = await ownedWorkflow();
    await engine.post("/workflows", { workflow: fullConfig(workflow.id) }, owner.token);
    const again = await engine.post("/workflows", { workflow: fullConfig(workflow.id) }, owner.token);
    expect(again.status).toBe(422);
    const put = await engine.put(
      `/workflows/${workflow.id}`,
      { workflow: { status: "paused", rules_applied: "first_matching_rule" } },
      owner.token,
    );
    expect(put.status).toBe(200);
    expect(put.body.workflow).toMatchObject({ status: "paused", rules_applied: "first_matching_rule" });
    expect(Object.keys(put.body.workflow.reducers_config).sort()).toEqual(["c", "m", "n", "u"]);
    const emptied = await engine.put(
      `/workflows/${workflow.id}`,
      { workflow: { rules_config: [], reducers_config: {}, extractors_config: {} } },
      owner.token,
    );
    expect(emptied.status).toBe(200);
    expect(emptied.body.workflow).toMatchObject({ extractors_config: {}, reducers_config: {}, rules_config: [] });
  });

  it.each([
    ["unknown extractor type", { extractors_config: { q: { type: "magic" } } }, /extractors_config\.q\.type/],
    ["bad key", { extractors_config: { "bad key!": { type: "question", task_key: "T0" } } }, /extractors_config/],
    [
      "non-HTTPS external URL",
      { extractors_config: { x: { type: "external", url: "http://insecure.example.org" } } },
      /extractors_config\.x\.url/,
    ],
    ["unknown reducer type", { reducers_config: { r: { type: "nope" } } }, /reducers_config\.r\.type/],
    [
      "bad filter value",
      { reducers_config: { r: { type: "count", filters: { repeated_classifications: "sometimes" } } } },
      /reducers_config\.r\.filters\.repeated_classifications/,
    ],
    [
      "unknown operator",
      { rules_config: [{ if: ["gtx", ["const", 1], ["const", 2]], then: [{ action: "retire_subject" }] }] },
      /rules_config.*0.*gtx/,
    ],
    ["malformed condition", { rules_config: [{ if: "yes", then: [{ action: "retire_subject" }] }] }, /rules_config/],
    [
      "a user rule reading a subject reducer",
      {
        reducers_config: { zz: { type: "count" } },
        rules_config: [
          { topic: "user", if: ["gt", ["lookup", "zz.extracts", 0], ["const", 1]], then: [{ action: "promote_user", workflow_id: 2 }] },
        ],
      },
      /zz.*a user rule cannot read it/,
    ],
    ["unknown effect", { rules_config: [{ if: ["const", true], then: [{ action: "explode" }] }] }, /rules_config/],
    [
      "non-HTTPS external effect",
      { rules_config: [{ if: ["const", true], then: [{ action: "external_effect", url: "ftp://x" }] }] },
      /url/,
    ],
    ["bad status", { status: "sleeping" }, /status/],
    ["bad rules_applied", { rules_applied: "some" }, /rules_applied/],
  ])("rejects %s with a 422 naming the path, and saves nothing", async (_name, patch, message) => {
    const { owner, workflow } = await ownedWorkflow();
    const res = await engine.post("/workflows", { workflow: { id: workflow.id, ...patch } }, owner.token);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toMatch(message);
    expect(await db().engineWorkflow.findUnique({ where: { id: workflow.id } })).toBeNull();
    // The same on PUT: the stored configuration stays as it was.
    await engine.post("/workflows", { workflow: fullConfig(workflow.id) }, owner.token);
    const put = await engine.put(`/workflows/${workflow.id}`, { workflow: patch }, owner.token);
    expect(put.status).toBe(422);
    const got = await engine.get(`/workflows/${workflow.id}`, owner.token);
    expect(Object.keys(got.body.workflow.extractors_config).sort()).toEqual(["f", "q", "s", "x"]);
    expect(got.body.workflow.status).toBe("active");
  });

  it("enforces who may configure: owners, collaborators and admins; others 403, or 404 for private projects", async () => {
    const { owner, project, workflow } = await ownedWorkflow();
    const collaborator = await signedInUser();
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    const tester = await signedInUser();
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const stranger = await signedInUser();
    const admin = await signedInUser({ admin: true });

    expect((await engine.post("/workflows", { workflow: { id: workflow.id } })).status).toBe(401);
    expect((await engine.post("/workflows", { workflow: { id: workflow.id } }, stranger.token)).status).toBe(403);
    expect((await engine.post("/workflows", { workflow: { id: workflow.id } }, tester.token)).status).toBe(403);
    expect((await engine.post("/workflows", { workflow: { id: workflow.id } }, collaborator.token)).status).toBe(201);
    expect((await engine.get(`/workflows/${workflow.id}`, owner.token)).status).toBe(200);
    expect((await engine.get(`/workflows/${workflow.id}`, admin.token)).status).toBe(200);
    expect((await engine.get(`/workflows/${workflow.id}`, stranger.token)).status).toBe(403);
    expect((await engine.put(`/workflows/${workflow.id}`, { workflow: { status: "halted" } }, stranger.token)).status).toBe(403);

    const hidden = await ownedWorkflow({ private: true });
    expect((await engine.post("/workflows", { workflow: { id: hidden.workflow.id } }, stranger.token)).status).toBe(404);
    expect((await engine.get(`/workflows/${hidden.workflow.id}`, stranger.token)).status).toBe(404);
  });

  it("answers bad requests with JSON errors", async () => {
    const { owner, workflow } = await ownedWorkflow();
    expect((await engine.post("/workflows", null, owner.token, { raw: "{not json" })).status).toBe(400);
    expect((await engine.post("/workflows", { workflow: { id: workflow.id } }, owner.token, { contentType: "text/plain" })).status).toBe(
      415,
    );
    expect((await engine.get(`/workflows/abc`, owner.token)).status).toBe(404);
    expect((await engine.get(`/workflows/${workflow.id}`, owner.token)).status).toBe(404); // not in the engine yet
    const bad = await engine.post("/workflows", { workflow: { id: "x1" } }, owner.token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].message).toMatch(/id/);
  });
});
