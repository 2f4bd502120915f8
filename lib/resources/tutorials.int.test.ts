import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, createWorkflow, grantProjectRole, signedInUser } from "@/test/factories";
import { attachImage, createTutorial, CREATE_STATUSES, PEOPLE, projectWithPeople, type Person } from "@/test/factories-project-content";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "tutorials",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["tester"]);
    const workflow = await createWorkflow(project.id);
    const tutorial = await createTutorial(project.id, { workflowIds: [workflow.id] });
    await attachImage("tutorials", tutorial.id);
    return { id: tutorial.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    for (let i = 0; i < n; i++) await createTutorial(project.id);
    return { query: `project_id=${project.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id);
    return {
      record: {
        steps: [{ media: "12", content: "Welcome" }],
        language: "en",
        display_name: "Intro",
        links: { project: String(project.id), workflows: [String(workflow.id)] },
      },
      token: owner.token,
    };
  },
  update: { display_name: "Renamed", kind: "mini-course", steps: [{ content: "Only step" }], configuration: { delay: 3 } },
  invalidUpdate: { kind: "lecture" },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const tutorial = await createTutorial(project.id);
    return { id: tutorial.id, insider: owner.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: ["project", "workflows", "attached_images"],
  sortable: ["created_at", "updated_at", "display_name"],
});

const ids = (res: { body: { tutorials: { id: string }[] } }) => res.body.tutorials.map((t) => Number(t.id));

async function put(id: number, token: string | undefined, record: object) {
  const etag = (await api.get(`/tutorials/${id}`, { token })).headers.get("etag") ?? '"none"';
  return api.put(`/tutorials/${id}`, { tutorials: record }, { token, headers: { "if-match": etag } });
}

describe("tutorials: the record", () => {
  it("serializes steps, kind, display_name, configuration and links as the established platform does", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const w1 = await createWorkflow(project.id);
    const w2 = await createWorkflow(project.id);
    const steps = [{ media: "50", content: "Here's a fun fact" }, { content: "" }];
    const created = await api.post(
      "/tutorials",
      {
        tutorials: {
          steps,
          language: "en",
          kind: "mini-course",
          display_name: "Facts",
          configuration: { an_option: "a setting" },
          links: { project: project.id, workflows: [w2.id, String(w1.id)] },
        },
      },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    const t = created.body.tutorials[0];
    expect(t).toEqual({
      id: t.id,
      steps,
      language: "en",
      kind: "mini-course",
      display_name: "Facts",
      configuration: { an_option: "a setting" },
      href: `/tutorials/${t.id}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.stringMatching(/Z$/),
      links: {
        project: String(project.id),
        workflows: [String(w1.id), String(w2.id)],
        attached_images: { href: `/tutorials/${t.id}/attached_images`, type: "attached_images" },
      },
    });
    expect(Object.keys(created.body.links).sort()).toEqual(["tutorials.attached_images", "tutorials.project", "tutorials.workflows"]);
    // Without kind, display_name or configuration: a plain tutorial.
    const plain = await api.post(
      "/tutorials",
      { tutorials: { steps: [], language: "en", links: { project: String(project.id) } } },
      { token: owner.token },
    );
    expect(plain.body.tutorials[0]).toMatchObject({ kind: null, display_name: "", configuration: {}, links: { workflows: [] } });
  });

  it("includes the project, the linked workflows and the tutorial's attached images", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const linked = await createWorkflow(project.id);
    await createWorkflow(project.id);
    const tutorial = await createTutorial(project.id, { workflowIds: [linked.id] });
    const image = await attachImage("tutorials", tutorial.id);
    await attachImage("tutorials", (await createTutorial(project.id)).id);
    const res = await api.get(`/tutorials/${tutorial.id}?include=project,workflows,attached_images`);
    expect(res.status).toBe(200);
    expect(res.body.linked.projects.map((p: { id: string }) => p.id)).toEqual([String(project.id)]);
    expect(res.body.linked.workflows.map((w: { id: string }) => w.id)).toEqual([String(linked.id)]);
    expect(res.body.linked.attached_images.map((m: { id: string }) => m.id)).toEqual([String(image.id)]);
    expect(res.body.linked.attached_images[0].media_type).toBe("tutorial_attached_image");
  });
});

describe("tutorials: list filters", () => {
  it("finds a workflow's tutorials and mini-courses the way the classifier asks for them", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id);
    const otherWorkflow = await createWorkflow(project.id);
    const legacy = await createTutorial(project.id, { workflowIds: [workflow.id] });
    const tutorial = await createTutorial(project.id, { kind: "tutorial", workflowIds: [workflow.id, otherWorkflow.id] });
    const course = await createTutorial(project.id, { kind: "mini-course", workflowIds: [workflow.id] });
    const spanish = await createTutorial(project.id, { language: "es", workflowIds: [workflow.id] });
    const unlinked = await createTutorial(project.id, { kind: "mini-course" });
    const cases: [string, number[]][] = [
      [`workflow_id=${workflow.id}`, [legacy.id, tutorial.id, course.id]],
      [`workflow_id=${workflow.id}&kind=mini-course`, [course.id]],
      [`workflow_id=${workflow.id}&kind=tutorial`, [legacy.id, tutorial.id]],
      [`workflow_id=${otherWorkflow.id}`, [tutorial.id]],
      [`workflow_id=${workflow.id},${otherWorkflow.id}&sort=-id`, [course.id, tutorial.id, legacy.id]],
      [`workflow_id=${workflow.id}&language=es`, [spanish.id]],
      [`project_id=${project.id}&kind=mini-course`, [course.id, unlinked.id]],
      [`project_id=${project.id}&kind=lecture`, []],
      [`project_id=${project.id}`, [legacy.id, tutorial.id, course.id, unlinked.id]],
      [`id=${spanish.id}`, []],
      [`id=${spanish.id},${course.id}&language=es`, [spanish.id]],
    ];
    for (const [query, expected] of cases) {
      const res = await api.get(`/tutorials?${query}`);
      expect(res.status, query).toBe(200);
      expect(ids(res), query).toEqual(expected);
    }
    for (const bad of ["workflow_id=abc", "project_id=x", "workflow_id=1,,y"])
      expect((await api.get(`/tutorials?${bad}`)).status, bad).toBe(422);
  });

  it("sorts by display_name", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const b = await createTutorial(project.id, { displayName: "Beta" });
    const a = await createTutorial(project.id, { displayName: "Alpha" });
    const c = await createTutorial(project.id, { displayName: "Gamma" });
    expect(ids(await api.get(`/tutorials?project_id=${project.id}&sort=display_name`))).toEqual([a.id, b.id, c.id]);
    expect(ids(await api.get(`/tutorials?project_id=${project.id}&sort=-display_name`))).toEqual([c.id, b.id, a.id]);
  });
});

describe("tutorials: visibility follows the project", () => {
  const mayRead = (who: Person) => who !== "anonymous" && who !== "stranger";

  it("never shows a private project's tutorials to those without a role: show, list, workflow_id, include", async () => {
    const { project, token } = await projectWithPeople({ private: true });
    const workflow = await createWorkflow(project.id);
    const course = await createTutorial(project.id, { kind: "mini-course", workflowIds: [workflow.id] });
    for (const who of PEOPLE) {
      const visible = mayRead(who) ? [course.id] : [];
      expect((await api.get(`/tutorials/${course.id}`, { token: token(who) })).status, who).toBe(mayRead(who) ? 200 : 404);
      for (const query of [
        `workflow_id=${workflow.id}`,
        `workflow_id=${workflow.id}&kind=mini-course`,
        `project_id=${project.id}`,
        `id=${course.id}`,
      ]) {
        const res = await api.get(`/tutorials?${query}&include=workflows,project`, { token: token(who) });
        expect(res.status, `${who} ${query}`).toBe(200);
        expect(ids(res), `${who} ${query}`).toEqual(visible);
        expect(res.body.meta.tutorials.count, `${who} ${query}`).toBe(visible.length);
        // Nothing of the private project comes along through include either.
        if (mayRead(who))
          expect(
            res.body.linked.workflows.map((w: { id: string }) => w.id),
            `${who} ${query}`,
          ).toEqual([String(workflow.id)]);
        else expect(res.body.linked, `${who} ${query}`).toBeUndefined();
      }
    }
  });

  it("shows a public project's tutorials to everyone", async () => {
    const { project, token } = await projectWithPeople();
    const workflow = await createWorkflow(project.id);
    const tutorial = await createTutorial(project.id, { workflowIds: [workflow.id] });
    for (const who of PEOPLE) {
      expect((await api.get(`/tutorials/${tutorial.id}`, { token: token(who) })).status, who).toBe(200);
      expect(ids(await api.get(`/tutorials?workflow_id=${workflow.id}`, { token: token(who) })), who).toEqual([tutorial.id]);
    }
  });
});

describe("tutorials: create", () => {
  const body = (projectId: number, language: string, workflows: number[] = []) => ({
    tutorials: { steps: [{ content: "Hi" }], language, links: { project: String(projectId), workflows: workflows.map(String) } },
  });

  it("lets editors create in any language and translators in languages other than the project's primary one", async () => {
    const expected = CREATE_STATUSES;
    const pub = await projectWithPeople();
    const priv = await projectWithPeople({ private: true });
    for (const who of PEOPLE) {
      const before = await db().tutorial.count({ where: { projectId: { in: [pub.project.id, priv.project.id] } } });
      const got = {
        private: (await api.post("/tutorials", body(priv.project.id, "de"), { token: priv.token(who) })).status,
        en: (await api.post("/tutorials", body(pub.project.id, "en"), { token: pub.token(who) })).status,
        fr: (await api.post("/tutorials", body(pub.project.id, "fr"), { token: pub.token(who) })).status,
      };
      expect(got, who).toEqual(expected[who]);
      const after = await db().tutorial.count({ where: { projectId: { in: [pub.project.id, priv.project.id] } } });
      expect(after - before, who).toBe(Object.values(got).filter((s) => s === 201).length);
    }
  });

  it("rejects bad input with a 4xx naming the problem and creates nothing", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const foreignWorkflow = await createWorkflow((await createProject(owner.user.id)).id);
    const links = { project: String(project.id) };
    const step = { content: "Hi" };
    const cases: [string, object, number, RegExp][] = [
      [
        "unknown kind",
        { steps: [step], language: "en", kind: "lecture", links },
        422,
        /kind: must be null \(a tutorial\), 'tutorial' or 'mini-course'/,
      ],
      ["kind not a string", { steps: [step], language: "en", kind: 3, links }, 422, /kind/],
      ["step with an unknown key", { steps: [{ ...step, image: "1" }], language: "en", links }, 422, /steps\.0: unknown key\(s\) 'image'/],
      ["step without content", { steps: [step, { media: "1" }], language: "en", links }, 422, /steps\.1\.content/],
      ["media not an id", { steps: [{ ...step, media: "pic.png" }], language: "en", links }, 422, /steps\.0\.media/],
      ["media a number", { steps: [{ ...step, media: 7 }], language: "en", links }, 422, /steps\.0\.media/],
      ["steps not an array", { steps: "Hi", language: "en", links }, 422, /steps/],
      ["no language", { steps: [step], links }, 422, /language/],
      ["configuration not an object", { steps: [step], language: "en", configuration: [1], links }, 422, /configuration/],
      ["display_name not a string", { steps: [step], language: "en", display_name: 5, links }, 422, /display_name/],
      ["workflows not a list", { steps: [step], language: "en", links: { ...links, workflows: "1" } }, 422, /links\.workflows/],
      [
        "workflow of another project",
        { steps: [step], language: "en", links: { ...links, workflows: [String(foreignWorkflow.id)] } },
        422,
        /workflows must be workflows of the tutorial's project/,
      ],
      [
        "workflow that does not exist",
        { steps: [step], language: "en", links: { ...links, workflows: ["999999999"] } },
        422,
        /workflows must be workflows/,
      ],
      [
        "malformed workflow id",
        { steps: [step], language: "en", links: { ...links, workflows: ["w1"] } },
        422,
        /workflows must be a positive integer id/,
      ],
      [
        "unknown link",
        { steps: [step], language: "en", links: { ...links, subject_sets: [] } },
        422,
        /links: unknown key\(s\) 'subject_sets'/,
      ],
      ["missing project", { steps: [step], language: "en", links: { project: "999999999" } }, 404, /Could not find projects/],
    ];
    for (const [name, record, status, message] of cases) {
      const res = await api.post("/tutorials", { tutorials: record }, { token: owner.token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().tutorial.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db().workflowTutorial.count({ where: { workflowId: foreignWorkflow.id } })).toBe(0);
  });
});

describe("tutorials: edit, links and destroy", () => {
  it("edits every attribute and replaces links.workflows; translators only outside the primary language", async () => {
    const { project, token } = await projectWithPeople();
    const [w1, w2] = [await createWorkflow(project.id), await createWorkflow(project.id)];
    const en = await createTutorial(project.id, { workflowIds: [w1.id] });
    const fr = await createTutorial(project.id, { language: "fr" });
    const edit = {
      steps: [{ content: "Salut", media: "9" }],
      kind: "mini-course",
      display_name: "Cours",
      configuration: { x: 1 },
      links: { workflows: [String(w2.id)] },
    };
    const ok = await put(fr.id, token("translator"), edit);
    expect(ok.status).toBe(200);
    expect(ok.body.tutorials[0]).toMatchObject({ ...edit, links: { workflows: [String(w2.id)] } });
    expect((await put(fr.id, token("translator"), { language: "en" })).status).toBe(403);
    expect((await put(en.id, token("translator"), { display_name: "x" })).status).toBe(403);
    expect((await put(en.id, token("moderator"), { display_name: "x" })).status).toBe(403);
    const replaced = await put(en.id, token("collaborator"), {
      language: "de",
      kind: null,
      links: { workflows: [String(w2.id), String(w1.id)] },
    });
    expect(replaced.body.tutorials[0]).toMatchObject({ language: "de", kind: null, links: { workflows: [String(w1.id), String(w2.id)] } });
    expect((await put(en.id, token("owner"), { links: { workflows: [] } })).body.tutorials[0].links.workflows).toEqual([]);
  });

  it("rejects bad edits with a 4xx naming the problem and changes nothing", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id);
    const foreign = await createWorkflow((await createProject(owner.user.id)).id);
    const tutorial = await createTutorial(project.id, { workflowIds: [workflow.id] });
    const before = (await api.get(`/tutorials/${tutorial.id}`)).body.tutorials[0];
    const cases: [string, object, RegExp][] = [
      [
        "foreign workflow",
        { display_name: "New", links: { workflows: [String(workflow.id), String(foreign.id)] } },
        /workflows must be workflows of the tutorial's project/,
      ],
      ["unknown kind", { kind: "course" }, /kind/],
      ["step with an unknown key", { steps: [{ content: "a", title: "b" }] }, /steps\.0: unknown key\(s\) 'title'/],
      ["project cannot move", { links: { project: "1" } }, /links: unknown key\(s\) 'project'/],
      ["configuration not an object", { configuration: "x" }, /configuration/],
    ];
    for (const [name, record, message] of cases) {
      const res = await put(tutorial.id, owner.token, record);
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect((await api.get(`/tutorials/${tutorial.id}`)).body.tutorials[0]).toEqual(before);
  });

  it("links and unlinks workflows of its own project through the link endpoints", async () => {
    const { project, token } = await projectWithPeople({ private: true });
    const [w1, w2] = [await createWorkflow(project.id), await createWorkflow(project.id)];
    const foreign = await createWorkflow((await createProject((await signedInUser()).user.id)).id);
    const tutorial = await createTutorial(project.id);
    const linksOf = async () => (await api.get(`/tutorials/${tutorial.id}`, { token: token("owner") })).body.tutorials[0].links.workflows;

    const added = await api.post(
      `/tutorials/${tutorial.id}/links/workflows`,
      { workflows: [String(w1.id), w2.id] },
      { token: token("collaborator") },
    );
    expect(added.status).toBe(200);
    expect(added.body.tutorials[0].links.workflows).toEqual([String(w1.id), String(w2.id)]);
    expect(ids(await api.get(`/tutorials?workflow_id=${w2.id}`, { token: token("tester") }))).toEqual([tutorial.id]);

    const refused: [string, Promise<{ status: number; body: any }>, number][] = [
      [
        "foreign workflow",
        api.post(`/tutorials/${tutorial.id}/links/workflows`, { workflows: [String(foreign.id)] }, { token: token("owner") }),
        422,
      ],
      ["unknown link", api.post(`/tutorials/${tutorial.id}/links/subject_sets`, { subject_sets: ["1"] }, { token: token("owner") }), 422],
      ["wrong body key", api.post(`/tutorials/${tutorial.id}/links/workflows`, { workflow: ["1"] }, { token: token("owner") }), 422],
      ["malformed id", api.post(`/tutorials/${tutorial.id}/links/workflows`, { workflows: ["x"] }, { token: token("owner") }), 422],
      ["anonymous", api.post(`/tutorials/${tutorial.id}/links/workflows`, { workflows: [String(w1.id)] }), 401],
      [
        "stranger",
        api.post(`/tutorials/${tutorial.id}/links/workflows`, { workflows: [String(w1.id)] }, { token: token("stranger") }),
        404,
      ],
      ["tester", api.post(`/tutorials/${tutorial.id}/links/workflows`, { workflows: [String(w1.id)] }, { token: token("tester") }), 403],
      ["tester removing", api.delete(`/tutorials/${tutorial.id}/links/workflows/${w1.id}`, { token: token("tester") }), 403],
      ["stranger removing", api.delete(`/tutorials/${tutorial.id}/links/workflows/${w1.id}`, { token: token("stranger") }), 404],
      ["malformed ids", api.delete(`/tutorials/${tutorial.id}/links/workflows/a,b`, { token: token("owner") }), 422],
    ];
    for (const [name, p, status] of refused) {
      const res = await p;
      expect(res.status, name).toBe(status);
      expect(typeof res.body.errors[0].message, name).toBe("string");
    }
    expect(await linksOf()).toEqual([String(w1.id), String(w2.id)]);

    expect((await api.delete(`/tutorials/${tutorial.id}/links/workflows/${w1.id},${foreign.id}`, { token: token("owner") })).status).toBe(
      204,
    );
    expect(await linksOf()).toEqual([String(w2.id)]);
    expect(ids(await api.get(`/tutorials?workflow_id=${w1.id}`, { token: token("owner") }))).toEqual([]);
  });

  it("destroys the tutorial with its attached images and workflow links, leaving the workflows", async () => {
    const { project, token } = await projectWithPeople();
    const workflow = await createWorkflow(project.id);
    const tutorial = await createTutorial(project.id, { workflowIds: [workflow.id] });
    const other = await createTutorial(project.id, { workflowIds: [workflow.id] });
    await attachImage("tutorials", tutorial.id);
    await attachImage("tutorials", other.id);
    const etag = (await api.get(`/tutorials/${tutorial.id}`)).headers.get("etag")!;
    for (const who of ["anonymous", "stranger", "translator", "expert"] as const) {
      expect((await api.delete(`/tutorials/${tutorial.id}`, { token: token(who), headers: { "if-match": etag } })).status, who).toBe(
        who === "anonymous" ? 401 : 403,
      );
    }
    expect((await api.delete(`/tutorials/${tutorial.id}`, { token: token("collaborator"), headers: { "if-match": etag } })).status).toBe(
      204,
    );
    expect(await db().tutorial.findUnique({ where: { id: tutorial.id } })).toBeNull();
    expect(await db().medium.count({ where: { linkedType: "tutorials", linkedId: tutorial.id } })).toBe(0);
    expect(await db().medium.count({ where: { linkedType: "tutorials", linkedId: other.id } })).toBe(1);
    expect(await db().workflowTutorial.count({ where: { tutorialId: tutorial.id } })).toBe(0);
    expect(await db().workflow.findUnique({ where: { id: workflow.id } })).not.toBeNull();
    expect(ids(await api.get(`/tutorials?workflow_id=${workflow.id}`))).toEqual([other.id]);
  });
});

describe("mini-course progress", () => {
  it("is kept in the volunteer's project preference (preferences.minicourses) as the established clients write it", async () => {
    const volunteer = await signedInUser();
    const project = await createProject((await signedInUser()).user.id);
    const course = await createTutorial(project.id, { kind: "mini-course" });
    const minicourses = { [`opt_out_${course.id}`]: false, [`slide_to_start_${course.id}`]: 2 };
    const created = await api.post(
      "/project_preferences",
      { project_preferences: { preferences: { minicourses }, links: { project: String(project.id) } } },
      { token: volunteer.token },
    );
    expect(created.status).toBe(201);
    const id = created.body.project_preferences[0].id;
    const next = { ...minicourses, [`slide_to_start_${course.id}`]: 3, [`opt_out_${course.id}`]: true };
    const edited = await api.put(
      `/project_preferences/${id}`,
      { project_preferences: { preferences: { minicourses: next } } },
      { token: volunteer.token, headers: { "if-match": created.headers.get("etag")! } },
    );
    expect(edited.status).toBe(200);
    expect((await api.get(`/project_preferences/${id}`, { token: volunteer.token })).body.project_preferences[0].preferences).toEqual({
      minicourses: next,
    });
  });
});
