import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { drainPipeline, engine } from "@/test/engine";
import {
  classifiableProject,
  classificationBody,
  createSubjectSet,
  createWorkflow,
  grantProjectRole,
  signedInUser,
} from "@/test/factories";
import { createCollection } from "@/test/factories-collections";

// The established engine's per-resource configuration API, replayed as the Python client's Caesar class
// sends it (panoptes_client/caesar.py: save_workflow, create_workflow_extractor, create_workflow_reducer,
// create_workflow_rule, create_workflow_rule_effect, get_workflow_extractors/reducers,
// get_extracts_by_workflow_and_subject, get_reductions_by_workflow_and_subject), over the one stored
// configuration the document API reads and writes.

/** Caesar.save_workflow: GET; on "couldn't find workflow with 'id'" POST, else PUT. */
async function saveWorkflow(token: string, workflowId: number, publicExtracts = false, publicReductions = false) {
  const body = { workflow: { id: workflowId, public_extracts: publicExtracts, public_reductions: publicReductions } };
  const got = await engine.get(`/workflows/${workflowId}`, token);
  if (got.status === 404) {
    const message = got.body.errors.map((e: { message: string }) => e.message).join(", ");
    expect(message.toLowerCase()).toContain("couldn't find workflow with 'id'");
    return engine.post("/workflows", body, token);
  }
  expect(got.status).toBe(200);
  return engine.put(`/workflows/${workflowId}`, body, token);
}

async function classify(workflow: Parameters<typeof classificationBody>[0], subjectId: number, answer: number, token?: string) {
  const body = classificationBody(workflow, [subjectId]);
  body.classifications.annotations = [{ task: "T0", value: answer }];
  expect((await api.post("/classifications", body, { token })).status).toBe(201);
}

describe("engine per-resource API (the Python client's Caesar calls)", () => {
  it("builds a workflow's configuration call by call, which then retires a subject; the same built as one document behaves identically", async () => {
    const { owner, workflow: byResource, project, subjects: resourceSubjects } = await classifiableProject(2);
    const token = owner.token;
    const w = byResource.id;

    const created = await saveWorkflow(token, w, true, true);
    expect(created.status).toBe(201);
    expect(created.body.workflow).toMatchObject({
      id: w,
      public_extracts: true,
      public_reductions: true,
      extractors_config: {},
      rules_config: [],
    });
    // get_workflow reads the established shape: the workflow's fields at the top level.
    expect((await engine.get(`/workflows/${w}`, token)).body).toMatchObject({
      id: w,
      status: "active",
      public_extracts: true,
      public_reductions: true,
      rules_config: [],
    });
    const again = await saveWorkflow(token, w, true, false);
    expect(again.status).toBe(200);
    expect(again.body.workflow.public_reductions).toBe(false);

    // create_workflow_extractor(w, 'complete', 'question', 'T0', {'if_missing': 'ignore'})
    const extractor = await engine.post(
      `/workflows/${w}/extractors`,
      { extractor: { type: "question", key: "complete", task_key: "T0", if_missing: "ignore" } },
      token,
    );
    expect(extractor.status).toBe(201);
    expect(extractor.body).toMatchObject({
      workflow_id: w,
      key: "complete",
      type: "question",
      config: { task_key: "T0", if_missing: "ignore" },
    });
    expect(typeof extractor.body.id).toBe("number");
    // create_workflow_reducer(w, 'count', 'count', {'filters': {'extractor_keys': ['complete']}})
    const reducer = await engine.post(
      `/workflows/${w}/reducers`,
      { reducer: { type: "count", key: "count", filters: { extractor_keys: ["complete"] } } },
      token,
    );
    expect(reducer.status).toBe(201);
    expect(reducer.body).toMatchObject({
      key: "count",
      type: "count",
      topic: "reduce_by_subject",
      filters: { extractor_keys: ["complete"] },
    });
    // create_workflow_rule(w, 'subject', '["gte", ["lookup", "count.classifications", 0], ["const", 2]]')
    const rule = await engine.post(
      `/workflows/${w}/subject_rules`,
      { subject_rule: { condition_string: '["gte", ["lookup", "count.classifications", 0], ["const", 2]]' } },
      token,
    );
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ workflow_id: w, condition: ["gte", ["lookup", "count.classifications", 0], ["const", 2]] });
    expect(rule.body.warnings).toEqual(["rules_config[0].then: the rule has no effects, so it does nothing"]);
    // create_workflow_rule_effect(w, 'subject', rule['id'], 'retire_subject', {'reason': 'classification_count'})
    const effect = await engine.post(
      `/workflows/${w}/subject_rules/${rule.body.id}/subject_rule_effects`,
      { subject_rule_effect: { action: "retire_subject", config: { reason: "classification_count" } } },
      token,
    );
    expect(effect.status).toBe(201);
    expect(effect.body).toMatchObject({
      subject_rule_id: rule.body.id,
      action: "retire_subject",
      config: { reason: "classification_count" },
    });
    expect(effect.body.warnings).toBeUndefined();

    // get_workflow_extractors / get_workflow_reducers, and the document shows the same configuration.
    expect((await engine.get(`/workflows/${w}/extractors`, token)).body.map((e: { key: string }) => e.key)).toEqual(["complete"]);
    expect((await engine.get(`/workflows/${w}/reducers`, token)).body).toHaveLength(1);
    const document = (await engine.get(`/workflows/${w}`, token)).body.workflow;
    expect(document.rules_config).toEqual([
      {
        topic: "subject",
        if: ["gte", ["lookup", "count.classifications", 0], ["const", 2]],
        then: [{ action: "retire_subject", reason: "classification_count" }],
      },
    ]);

    // The same configuration as one document, on a second workflow of the project, gets the same classifications.
    const byDocument = await createWorkflow(project.id);
    const { subjects: docSubjects } = await createSubjectSet(project.id, 2, { workflowIds: [byDocument.id] });
    const { id: _id, created_at: _c, updated_at: _u, project_id: _p, ...config } = document;
    expect((await engine.post("/workflows", { workflow: { ...config, id: byDocument.id } }, token)).status).toBe(201);

    const volunteers = await Promise.all([1, 2, 3].map(() => signedInUser()));
    for (const [wf, subjects] of [
      [byResource, resourceSubjects],
      [byDocument, docSubjects],
    ] as const) {
      await classify(wf, subjects[0].id, 0, volunteers[0].token);
      await classify(wf, subjects[0].id, 1, volunteers[1].token);
      await classify(wf, subjects[1].id, 1, volunteers[2].token);
    }
    await drainPipeline();

    const outcome = async (workflowId: number, subjectIds: number[]) =>
      Promise.all(
        subjectIds.map(async (sid) => {
          // get_extracts_by_workflow_and_subject: the literal key "extractor" lists every extractor's extracts.
          const extracts = await engine.get(`/workflows/${workflowId}/extractors/extractor/extracts?subject_id=${sid}`, token);
          // get_reductions_by_workflow_and_subject
          const reductions = await engine.get(`/workflows/${workflowId}/subjects/${sid}/reductions`, token);
          const status = await db().subjectWorkflowStatus.findUnique({ where: { subjectId_workflowId: { subjectId: sid, workflowId } } });
          return {
            extracts: extracts.body.map((e: { extractor_key: string; data: unknown }) => [e.extractor_key, e.data]),
            reductions: reductions.body.map((r: { reducer_key: string; data: unknown }) => [r.reducer_key, r.data]),
            retired: status?.retirementReason ?? null,
          };
        }),
      );
    const a = await outcome(
      w,
      resourceSubjects.slice(0, 2).map((s) => s.id),
    );
    const b = await outcome(
      byDocument.id,
      docSubjects.slice(0, 2).map((s) => s.id),
    );
    expect(a).toEqual(b);
    expect(a[0]).toEqual({
      extracts: [
        ["complete", { "0": 1 }],
        ["complete", { "1": 1 }],
      ],
      reductions: [["count", { classifications: 2, extracts: 2 }]],
      retired: "classification_count",
    });
    expect(a[1].retired).toBeNull();
  });

  it("takes the Python client's ALICE set-up (configure_for_alice: its extractors, reducers, rules and effects)", async () => {
    const { owner, workflow } = await classifiableProject(1);
    const t = owner.token;
    const w = workflow.id;
    expect((await saveWorkflow(t, w)).status).toBe(201);
    const post = async (path: string, body: object) => {
      const res = await engine.post(`/workflows/${w}${path}`, body, t);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
      return res.body;
    };
    // add_alice_extractors()
    await post("/extractors", { extractor: { type: "question", key: "complete", task_key: "T1", if_missing: "ignore" } });
    await post("/extractors", {
      extractor: {
        type: "external",
        key: "alice",
        task_key: "T0",
        url: "https://aggregation-caesar.zooniverse.org/extractors/line_text_extractor?task=T0",
      },
    });
    // add_alice_reducers()
    const filters = { extractor_keys: ["alice"], repeated_classifications: "keep_first" };
    await post("/reducers", {
      reducer: {
        type: "external",
        key: "alice",
        url: "https://aggregation-caesar.zooniverse.org/reducers/optics_line_text_reducer?minimum_views=5&low_consensus_threshold=3",
        filters,
      },
    });
    const complete = { filters: { extractor_keys: ["complete"], repeated_classifications: "keep_first" } };
    await post("/reducers", { reducer: { type: "stats", key: "complete", ...complete } });
    await post("/reducers", { reducer: { type: "count", key: "count", ...complete } });
    // add_alice_rules_and_effects()
    const toAlice = { url: "https://tove.zooniverse.org/import", reducer_key: "alice" };
    const question = await post("/subject_rules", {
      subject_rule: { condition_string: '["gte", ["lookup", "complete.0", 0], ["const", 3]]' },
    });
    await post(`/subject_rules/${question.id}/subject_rule_effects`, { subject_rule_effect: { action: "external", config: toAlice } });
    await post(`/subject_rules/${question.id}/subject_rule_effects`, {
      subject_rule_effect: { action: "retire_subject", config: { reason: "consensus" } },
    });
    const count = await post("/subject_rules", {
      subject_rule: { condition_string: '["gte", ["lookup", "count.classifications", 0], ["const", 30]]' },
    });
    await post(`/subject_rules/${count.id}/subject_rule_effects`, { subject_rule_effect: { action: "external", config: toAlice } });
    await post(`/subject_rules/${count.id}/subject_rule_effects`, {
      subject_rule_effect: { action: "retire_subject", config: { reason: "classification_count" } },
    });

    const doc = (await engine.get(`/workflows/${w}`, t)).body.workflow;
    expect(Object.keys(doc.extractors_config).sort()).toEqual(["alice", "complete"]);
    expect(Object.keys(doc.reducers_config).sort()).toEqual(["alice", "complete", "count"]);
    expect(doc.rules_config.map((r: { then: { action: string }[] }) => r.then.map((e) => e.action))).toEqual([
      ["external_effect", "retire_subject"],
      ["external_effect", "retire_subject"],
    ]);
    expect(doc.rules_config[0].then[0]).toEqual({
      action: "external_effect",
      url: "https://tove.zooniverse.org/import",
      reducer_key: "alice",
    });
    // caesar_subject_reductions(subject, 'complete') asks with ?reducer_key=
    expect((await engine.get(`/workflows/${w}/subjects/1/reductions?reducer_key=complete`, t)).body).toEqual([]);
  });

  it("edits and deletes one resource at a time, keeping the others' ids, and validates each change as the whole document", async () => {
    const { owner, project, workflow } = await classifiableProject(1);
    const t = owner.token;
    const w = workflow.id;
    // What the effects name: the owner's collection and workflows of the same project.
    const collection = String((await createCollection({ userId: owner.user.id })).id);
    const [nine, ten] = [String((await createWorkflow(project.id)).id), String((await createWorkflow(project.id)).id)];
    await engine.post(
      "/workflows",
      {
        workflow: { id: w, extractors_config: { q: { type: "question", task_key: "T0" } }, reducers_config: { c: { type: "consensus" } } },
      },
      t,
    );
    const [q] = (await engine.get(`/workflows/${w}/extractors`, t)).body;
    const [c] = (await engine.get(`/workflows/${w}/reducers`, t)).body;

    // Refused changes (422 naming the path) leave everything as it was.
    const refused: [string, () => Promise<{ status: number; body: any }>, RegExp][] = [
      [
        "unknown extractor type",
        () => engine.post(`/workflows/${w}/extractors`, { extractor: { key: "x", type: "magic" } }, t),
        /extractors_config\.x\.type: unknown extractor type 'magic'/,
      ],
      [
        "duplicate key",
        () => engine.post(`/workflows/${w}/extractors`, { extractor: { key: "q", type: "blank", task_key: "T0" } }, t),
        /'q' is already a extractor|already/,
      ],
      ["missing key", () => engine.post(`/workflows/${w}/reducers`, { reducer: { type: "count" } }, t), /reducer\.key is required/],
      [
        "reducer naming an unknown extractor",
        () => engine.post(`/workflows/${w}/reducers`, { reducer: { key: "n", type: "count", filters: { extractor_keys: ["zz"] } } }, t),
        /'zz' is not a configured extractor/,
      ],
      [
        "deleting an extractor a reducer needs",
        async () => {
          await engine.post(
            `/workflows/${w}/reducers`,
            { reducer: { key: "needs_q", type: "count", filters: { extractor_keys: ["q"] } } },
            t,
          );
          return engine.delete(`/workflows/${w}/extractors/${q.id}`, t);
        },
        /reducers_config\.needs_q\.filters\.extractor_keys: 'q' is not a configured extractor/,
      ],
      [
        "condition_string that is not JSON",
        () => engine.post(`/workflows/${w}/subject_rules`, { subject_rule: { condition_string: "gte(" } }, t),
        /condition_string is not JSON/,
      ],
      [
        "malformed condition",
        () => engine.post(`/workflows/${w}/subject_rules`, { subject_rule: { condition: ["nope"] } }, t),
        /unknown operator 'nope'/,
      ],
      ["wrong envelope", () => engine.post(`/workflows/${w}/extractors`, { extractors: { key: "y" } }, t), /expected 'extractor'/],
    ];
    for (const [name, send, message] of refused) {
      const res = await send();
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(Object.keys((await engine.get(`/workflows/${w}`, t)).body.workflow.extractors_config)).toEqual(["q"]);

    // A subject rule and a user rule, each with effects; caesar's effect names are accepted.
    const r1 = (
      await engine.post(
        `/workflows/${w}/subject_rules`,
        { subject_rule: { condition: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]] } },
        t,
      )
    ).body;
    const r2 = (await engine.post(`/workflows/${w}/user_rules`, { user_rule: { condition_string: '["const", true]' } }, t)).body;
    const e1 = await engine.post(
      `/workflows/${w}/subject_rules/${r1.id}/subject_rule_effects`,
      { subject_rule_effect: { action: "add_to_collection", config: { collection_id: collection } } },
      t,
    );
    expect(e1.status).toBe(201);
    expect(e1.body).toMatchObject({ action: "add_subject_to_collection", config: { collection_id: collection } });
    const wrongTopic = await engine.post(
      `/workflows/${w}/user_rules/${r2.id}/user_rule_effects`,
      { user_rule_effect: { action: "retire_subject", config: {} } },
      t,
    );
    expect(wrongTopic.status).toBe(422);
    expect(wrongTopic.body.errors[0].message).toMatch(/'retire_subject' is a subject effect; it cannot be used in a user rule/);
    expect((await engine.get(`/workflows/${w}/subject_rules/${r2.id}`, t)).status).toBe(404);
    const e2 = (
      await engine.post(
        `/workflows/${w}/user_rules/${r2.id}/user_rule_effects`,
        { user_rule_effect: { action: "promote_user", config: { workflow_id: nine } } },
        t,
      )
    ).body;

    // Edits keep ids; the document follows.
    // Renaming the reducer the subject rule reads: saved, with a warning (the lookup now yields its default).
    const renamed = await engine.put(`/workflows/${w}/reducers/${c.id}`, { reducer: { key: "votes" } }, t);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: c.id, key: "votes", type: "consensus" });
    expect(renamed.body.warnings).toEqual([
      "rules_config[0].if[1][1]: lookup 'c.num_votes': 'c' is not a configured reducer, so it always yields its default",
    ]);
    expect((await engine.put(`/workflows/${w}/reducers/votes`, { reducer: { key: "c" } }, t)).body.warnings).toBeUndefined();
    const edited = await engine.put(`/workflows/${w}/extractors/q`, { extractor: { if_missing: "reject" } }, t);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: q.id, key: "q", config: { task_key: "T0", if_missing: "reject" } });
    const condition = await engine.put(
      `/workflows/${w}/subject_rules/${r1.id}`,
      { subject_rule: { condition: ["gte", ["lookup", "c.num_votes", 0], ["const", 5]] } },
      t,
    );
    expect(condition.body).toMatchObject({ id: r1.id, condition: ["gte", ["lookup", "c.num_votes", 0], ["const", 5]] });
    const effectEdit = await engine.put(
      `/workflows/${w}/user_rules/${r2.id}/user_rule_effects/${e2.id}`,
      { user_rule_effect: { action: "promote_user", config: { workflow_id: ten } } },
      t,
    );
    expect(effectEdit.body).toMatchObject({ id: e2.id, config: { workflow_id: ten } });

    // Deleting the first rule keeps the second rule's id, and the order.
    expect((await engine.delete(`/workflows/${w}/subject_rules/${r1.id}`, t)).status).toBe(204);
    const doc = (await engine.get(`/workflows/${w}`, t)).body.workflow;
    expect(doc.rules_config).toEqual([{ topic: "user", if: ["const", true], then: [{ action: "promote_user", workflow_id: ten }] }]);
    expect((await engine.get(`/workflows/${w}/user_rules`, t)).body.map((r: { id: number }) => r.id)).toEqual([r2.id]);
    // A document save keeps the ids of what it keeps.
    await engine.put(`/workflows/${w}`, { workflow: { status: "paused" } }, t);
    expect((await engine.get(`/workflows/${w}/extractors/${q.id}`, t)).body.key).toBe("q");
    expect((await engine.get(`/workflows/${w}/user_rules/${r2.id}/user_rule_effects/${e2.id}`, t)).body.config).toEqual({
      workflow_id: ten,
    });
  });

  it("is for the workflow's editors; public extracts and reductions may be read by anyone who sees the workflow", async () => {
    const { owner, workflow } = await classifiableProject(1);
    const stranger = await signedInUser();
    const tester = await signedInUser();
    await grantProjectRole(workflow.projectId, tester.user.id, ["tester"]);
    const w = workflow.id;
    expect(
      (await engine.post(`/workflows/${w}/extractors`, { extractor: { key: "q", type: "question", task_key: "T0" } }, owner.token)).status,
    ).toBe(404);
    await engine.post("/workflows", { workflow: { id: w, extractors_config: { q: { type: "question", task_key: "T0" } } } }, owner.token);
    for (const [who, token] of [
      ["stranger", stranger.token],
      ["tester", tester.token],
    ] as const) {
      expect(
        (await engine.post(`/workflows/${w}/extractors`, { extractor: { key: "b", type: "blank", task_key: "T0" } }, token)).status,
        who,
      ).toBe(403);
      expect((await engine.get(`/workflows/${w}/extractors`, token)).status, who).toBe(403);
      expect((await engine.get(`/workflows/${w}/extractors/q/extracts?subject_id=1`, token)).status, who).toBe(403);
    }
    expect((await engine.get(`/workflows/${w}/extractors`)).status).toBe(401);
    await engine.put(`/workflows/${w}`, { workflow: { public_extracts: true } }, owner.token);
    expect((await engine.get(`/workflows/${w}/extractors/q/extracts?subject_id=1`, stranger.token)).status).toBe(200);
    expect((await engine.get(`/workflows/${w}/subjects/1/reductions`, stranger.token)).status).toBe(403);
    expect((await engine.get(`/workflows/${w}/extractors`, stranger.token)).status).toBe(403);
  });
});
