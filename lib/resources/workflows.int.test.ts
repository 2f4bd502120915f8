import { describe, expect, it } from "vitest";
import { api } from "@/test/http";
import { createProject, createSubjectSet, createWorkflow, grantProjectRole, signedInUser, SIMPLE_TASKS } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "workflows",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["tester"]);
    const w = await createWorkflow(project.id);
    return { id: w.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    for (let i = 0; i < n; i++) await createWorkflow(project.id);
    return { query: `project_id=${project.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    return {
      record: { display_name: "Count animals", tasks: SIMPLE_TASKS, first_task: "T0", links: { project: String(project.id) } },
      token: owner.token,
    };
  },
  update: { display_name: "Renamed workflow", active: false },
  invalidUpdate: { active: "nope" },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const w = await createWorkflow(project.id);
    return { id: w.id, insider: owner.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: [],
  sortable: ["display_name", "created_at", "classifications_count"],
});

async function put(id: number, token: string, record: object) {
  const etag = (await api.get(`/workflows/${id}`, { token })).headers.get("etag")!;
  return api.put(`/workflows/${id}`, { workflows: record }, { token, headers: { "if-match": etag } });
}

describe("workflows: tasks and versions", () => {
  it("validates every task type and the task graph on save", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const good = {
      T0: {
        type: "single",
        question: "Animal?",
        answers: [
          { label: "Yes", next: "T1" },
          { label: "No", next: "T5" },
        ],
      },
      T1: { type: "multiple", question: "Which?", answers: [{ label: "Cat" }, { label: "Dog" }], next: "T2" },
      T2: {
        type: "drawing",
        instruction: "Mark them",
        tools: [
          { type: "point", label: "Head" },
          { type: "rectangle", label: "Box" },
          { type: "circle", label: "C" },
          { type: "line", label: "L" },
          { type: "polygon", label: "P" },
        ],
        next: "T3",
      },
      T3: {
        type: "survey",
        choices: { ZEBRA: { label: "Zebra", characteristics: { PTTRN: ["STRPS"] } } },
        choicesOrder: ["ZEBRA"],
        characteristics: { PTTRN: { label: "Pattern", values: { STRPS: { label: "Stripes" } } } },
        questions: { HWMN: { label: "How many?", answers: { "1": { label: "1" } } } },
        next: "T4",
      },
      T4: { type: "combo", tasks: ["T5", "T6"] },
      T5: { type: "text", instruction: "Transcribe" },
      T6: { type: "single", question: "Sure?", answers: [{ label: "Yes" }] },
    };
    const ok = await api.post(
      "/workflows",
      { workflows: { display_name: "All tasks", tasks: good, first_task: "T0", links: { project: String(project.id) } } },
      { token: owner.token },
    );
    expect(ok.status).toBe(201);
    expect(ok.body.workflows[0].tasks.T3.choices.ZEBRA.label).toBe("Zebra");

    const bad: [string, object, string, RegExp][] = [
      ["unknown type", { T0: { type: "dance" } }, "T0", /task type/],
      ["no answers", { T0: { type: "single", question: "?", answers: [] } }, "T0", /answer/],
      ["bad tool", { T0: { type: "drawing", tools: [{ type: "laser" }] } }, "T0", /tool type/],
      ["dangling next", { T0: { type: "single", question: "?", answers: [{ label: "a", next: "T9" }] } }, "T0", /T9/],
      ["missing first task", SIMPLE_TASKS, "T7", /first_task/],
      [
        "nested combo",
        { T0: { type: "combo", tasks: ["T1"] }, T1: { type: "combo", tasks: ["T2"] }, T2: { type: "text" } },
        "T0",
        /nested/,
      ],
      ["combo of missing", { T0: { type: "combo", tasks: ["T1"] } }, "T0", /T1/],
    ];
    for (const [name, tasks, first, msg] of bad) {
      const res = await api.post(
        "/workflows",
        { workflows: { display_name: name, tasks, first_task: first, links: { project: String(project.id) } } },
        { token: owner.token },
      );
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].message, name).toMatch(msg);
    }
    const list = await api.get(`/workflows?project_id=${project.id}`, { token: owner.token });
    expect(list.body.workflows).toHaveLength(1);
  });

  it("bumps the major version when tasks' structure or first_task change, the minor one for strings only", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const w = await createWorkflow(project.id);
    expect((await api.get(`/workflows/${w.id}`)).body.workflows[0].version).toBe("1.1");
    const relabel = { T0: { ...SIMPLE_TASKS.T0, question: "Any animal at all?" } };
    expect((await put(w.id, owner.token, { tasks: relabel })).body.workflows[0].version).toBe("1.2");
    expect((await put(w.id, owner.token, { display_name: "No version change" })).body.workflows[0].version).toBe("1.2");
    const restructure = { T0: { ...relabel.T0, answers: [...relabel.T0.answers, { label: "Maybe" }] } };
    expect((await put(w.id, owner.token, { tasks: restructure })).body.workflows[0].version).toBe("2.2");
    const withT1 = { ...restructure, T1: { type: "text", instruction: "Notes" } };
    expect((await put(w.id, owner.token, { tasks: withT1 })).body.workflows[0].version).toBe("3.2");
    expect((await put(w.id, owner.token, { first_task: "T1" })).body.workflows[0].version).toBe("4.2");
  });

  it("validates retirement and links subject sets of its own project only", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const other = await createProject(owner.user.id);
    const w = await createWorkflow(project.id);
    const { set } = await createSubjectSet(project.id, 3);
    const { set: foreign } = await createSubjectSet(other.id, 1);
    expect((await put(w.id, owner.token, { retirement: { criteria: "classification_count", options: { count: 0 } } })).status).toBe(422);
    expect((await put(w.id, owner.token, { retirement: { criteria: "sometimes" } })).status).toBe(422);
    expect((await put(w.id, owner.token, { retirement: { criteria: "never_retire" } })).status).toBe(200);
    const added = await api.post(`/workflows/${w.id}/links/subject_sets`, { subject_sets: [String(set.id)] }, { token: owner.token });
    expect(added.status).toBe(200);
    expect(added.body.workflows[0].links.subject_sets).toEqual([String(set.id)]);
    expect(added.body.workflows[0].subjects_count).toBe(3);
    expect((await api.post(`/workflows/${w.id}/links/subject_sets`, { subject_sets: [foreign.id] }, { token: owner.token })).status).toBe(
      422,
    );
    expect((await api.post(`/workflows/${w.id}/links/nope`, { nope: [1] }, { token: owner.token })).status).toBe(422);
    expect((await api.post(`/workflows/${w.id}/links/subject_sets`, { wrong: [1] }, { token: owner.token })).status).toBe(422);
    expect((await api.delete(`/workflows/${w.id}/links/subject_sets/${set.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/workflows/${w.id}`)).body.workflows[0].links.subject_sets).toEqual([]);
  });

  it("lets only project editors create workflows", async () => {
    const owner = await signedInUser();
    const tester = await signedInUser();
    const project = await createProject(owner.user.id);
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const body = { workflows: { display_name: "x", links: { project: String(project.id) } } };
    expect((await api.post("/workflows", body, { token: tester.token })).status).toBe(403);
    expect(
      (await api.post("/workflows", { workflows: { display_name: "x", links: { project: "999999" } } }, { token: owner.token })).status,
    ).toBe(404);
    expect((await api.post("/workflows", { workflows: { display_name: "x" } }, { token: owner.token })).status).toBe(422);
  });
});
