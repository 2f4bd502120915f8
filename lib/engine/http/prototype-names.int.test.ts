// The engine's API with names Object.prototype has, where clients write keys and where volunteers write
// answers: `constructor` and the like are ordinary keys and answers; `__proto__`, which no parsed map can
// hold, is refused by name as a key; and an object sent where a string belongs (one with its own
// `toString`, which String() would call and throw on) is refused or ignored. Each was a 500.
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "@/test/http";
import { engine } from "@/test/engine";
import { classifiableProject, classificationBody } from "@/test/factories";

type Fixture = Awaited<ReturnType<typeof classifiableProject>>;
let f: Fixture;
beforeAll(async () => {
  f = await classifiableProject(1);
  const saved = await engine.post(
    "/workflows",
    {
      workflow: {
        id: f.workflow.id,
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { c: { type: "consensus" } },
      },
    },
    f.owner.token,
  );
  expect(saved.status, saved.text).toBe(201);
});

const EVIL = { toString: "x", valueOf: "y" };

describe("keys", () => {
  it.each(["extractors", "reducers"])("an %s key '__proto__' is a 422 naming it (one by one and in a document)", async (kind) => {
    const one =
      kind === "extractors"
        ? { extractor: { key: "__proto__", type: "question", task_key: "T0" } }
        : { reducer: { key: "__proto__", type: "consensus" } };
    const res = await engine.post(`/workflows/${f.workflow.id}/${kind}`, one, f.owner.token);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/'__proto__' cannot be a key/);
    const map = kind === "extractors" ? "extractors_config" : "reducers_config";
    const config = kind === "extractors" ? { type: "question", task_key: "T0" } : { type: "consensus" };
    // (JSON.parse makes __proto__ an own key, as a client's body does)
    const doc = await call("PUT", `/engine/workflows/${f.workflow.id}`, {
      token: f.owner.token,
      accept: "application/json",
      raw: `{"workflow":{"${map}":{"__proto__":${JSON.stringify(config)}}}}`,
    });
    expect(doc.status, doc.text).toBe(422);
    expect(doc.body.errors[0].message).toMatch(new RegExp(`${map}.__proto__`));
  });

  it("a reducer and an extractor keyed 'constructor' are saved and read back like any other", async () => {
    const { owner, workflow } = await classifiableProject(1);
    expect((await engine.post("/workflows", { workflow: { id: workflow.id } }, owner.token)).status).toBe(201);
    expect(
      (
        await engine.post(
          `/workflows/${workflow.id}/extractors`,
          { extractor: { key: "constructor", type: "question", task_key: "T0" } },
          owner.token,
        )
      ).status,
    ).toBe(201);
    const reducer = await engine.post(
      `/workflows/${workflow.id}/reducers`,
      { reducer: { key: "toString", type: "consensus", filters: { extractor_keys: ["constructor"] } } },
      owner.token,
    );
    expect(reducer.status, reducer.text).toBe(201);
    const read = await engine.get(`/workflows/${workflow.id}`, owner.token);
    expect(Object.keys(read.body.extractors_config)).toEqual(["constructor"]);
    expect(Object.keys(read.body.reducers_config)).toEqual(["toString"]);
  });
});

describe("keys in the path", () => {
  it("a reducer or extractor named like an Object.prototype key that is not configured is a 404, and stores nothing", async () => {
    for (const key of ["constructor", "toString", "hasOwnProperty"]) {
      const reduction = await engine.post(
        `/workflows/${f.workflow.id}/reducers/${key}/reductions`,
        { subject_id: f.subjects[0].id, data: { n: 1 } },
        f.owner.token,
      );
      expect(reduction.status, reduction.text).toBe(404);
      const extract = await engine.post(
        `/workflows/${f.workflow.id}/extractors/${key}/extracts`,
        { subject_id: f.subjects[0].id, classification_id: 1, data: {} },
        f.owner.token,
      );
      expect(extract.status, extract.text).toBe(404);
    }
  });
});

describe("objects where a string belongs", () => {
  it("a classification's metadata.workflow_version is a 422 naming it", async () => {
    const body = classificationBody(f.workflow, [f.subjects[0].id]);
    (body.classifications.metadata as Record<string, unknown>).workflow_version = EVIL;
    const res = await call("POST", "/api/classifications", { token: f.owner.token, body });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/workflow_version/);
  });

  it("an engine configuration's id is a 422 naming it", async () => {
    const res = await engine.put(`/workflows/${f.workflow.id}`, { workflow: { id: EVIL } }, f.owner.token);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/^id: /);
  });

  it("a posted reduction's subgroup is a 422 naming it", async () => {
    const res = await engine.post(
      `/workflows/${f.workflow.id}/reducers/c/reductions`,
      { subject_id: f.subjects[0].id, data: {}, subgroup: EVIL },
      f.owner.token,
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/subgroup/);
  });

  // (in the grouped form the key names the task, whatever each annotation's own `task` holds)
  it("a dry run's pasted metadata.workflow_version is ignored, and a grouped annotation's task too", async () => {
    const res = await engine.post(
      `/workflows/${f.workflow.id}/dry_run`,
      {
        workflow: { extractors_config: { q: { type: "question", task_key: "T0" } } },
        classifications: [
          {
            id: 1,
            subject_id: 1,
            annotations: {
              T0: [
                { task: EVIL, value: 0 },
                { task: "T0", value: 1 },
              ],
            },
            metadata: { workflow_version: EVIL },
          },
        ],
      },
      f.owner.token,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.extracts).toEqual([expect.objectContaining({ extractor_key: "q", data: { "0": 1, "1": 1 } })]);
  });
});

describe("volunteers' answers in a dry run", () => {
  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])(
    "survey choice %s is counted, reduced and looked up; Object is left alone",
    async (choice) => {
      const before = Object.getOwnPropertyNames(Object).sort();
      const workflow = {
        extractors_config: { constructor: { type: "survey", task_key: "T0" } },
        reducers_config: { constructor: { type: "consensus", filters: { extractor_keys: ["constructor"] } } },
        rules_config: [
          { if: ["gte", ["lookup", "constructor.num_votes", 0], ["const", 2]], then: [{ action: "retire_subject", reason: "consensus" }] },
        ],
      };
      const classifications = [1, 2].map((id) => ({ id, subject_id: 7, user_id: id, annotations: [{ task: "T0", value: [{ choice }] }] }));
      const res = await call("POST", `/engine/workflows/${f.workflow.id}/dry_run`, {
        token: f.owner.token,
        accept: "application/json",
        raw: JSON.stringify({ workflow, classifications }),
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.extracts.map((e: { data: unknown }) => e.data)).toEqual(
        [{ [choice]: 1 }, { [choice]: 1 }].map((d) => JSON.parse(JSON.stringify(d))),
      );
      expect(res.body.reductions).toEqual([
        expect.objectContaining({ reducer_key: "constructor", data: { most_likely: choice, num_votes: 2, agreement: 1 } }),
      ]);
      expect(JSON.stringify(res.body.targets)).toContain("retire_subject");
      expect(Object.getOwnPropertyNames(Object).sort()).toEqual(before);
    },
  );
});
