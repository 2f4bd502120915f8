// The requests of two sessions of the established front end run against Quorum (README: "The established
// front end"), replayed in their order with their exact query strings, so CI keeps them working without it:
// - lib-classifier's dev app: a volunteer signs in, sees the tutorial and the field guide, classifies a
//   question, a drawing and a survey workflow;
// - the project app (app-project): home, classify and stats pages, anonymous and signed in through its own
//   sign-in form (GET /users/sign_in/?now=, POST /users/sign_in, POST /oauth/token from the session).
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { call } from "@/test/http";
import { cookieJar } from "@/test/cookie-jar";
import { createSubjectSet, createUser, createWorkflow, signedInUser, createProject, tokenFor } from "@/test/factories";

const JSONAPI = "application/vnd.api+json; version=1";
const today = new Date().toISOString().slice(0, 10);

const QUESTION = {
  T0: {
    type: "single",
    question: "Is there a penguin?",
    help: "Look **closely**.",
    answers: [{ label: "Yes" }, { label: "No" }],
    required: true,
  },
};
const DRAWING = {
  T0: { type: "drawing", instruction: "Mark every penguin.", tools: [{ type: "point", label: "Penguin", color: "#ff0000", details: [] }] },
};
const SURVEY = {
  T0: {
    type: "survey",
    choices: {
      PNGN: {
        label: "Penguin",
        description: "A bird",
        images: [],
        characteristics: {},
        noQuestions: false,
        confusionsOrder: [],
        confusions: {},
      },
    },
    choicesOrder: ["PNGN"],
    characteristics: {},
    characteristicsOrder: [],
    questions: {
      HWMN: {
        label: "How many?",
        multiple: false,
        required: true,
        answers: { "1": { label: "1" }, "2": { label: "2" } },
        answersOrder: ["1", "2"],
      },
    },
    questionsOrder: ["HWMN"],
    images: {},
  },
};

let f: {
  projectId: number;
  workflows: { id: number; version: string }[];
  subjectIds: number[];
  ownerToken: string;
  volunteer: { id: number; login: string; password: string; token: string };
  tutorialId: string;
  guideId: string;
};

beforeAll(async () => {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id, { live: true });
  const workflows = [];
  for (const tasks of [QUESTION, DRAWING, SURVEY])
    workflows.push(await createWorkflow(project.id, { tasks, retirement: { criteria: "classification_count", options: { count: 5 } } }));
  const { subjects } = await createSubjectSet(project.id, 4, { workflowIds: workflows.map((w) => w.id) });
  const tutorial = await call("POST", "/api/tutorials", {
    token: owner.token,
    body: {
      tutorials: {
        display_name: "How to classify",
        kind: "tutorial",
        language: "en",
        steps: [{ content: "Welcome! **Look**." }, { content: "Then answer." }],
        links: { project: String(project.id), workflows: [String(workflows[0].id)] },
      },
    },
  });
  expect(tutorial.status).toBe(201);
  const guide = await call("POST", "/api/field_guides", {
    token: owner.token,
    body: {
      field_guides: {
        language: "en",
        items: [{ title: "Penguin", content: "A **flightless** bird." }],
        links: { project: String(project.id) },
      },
    },
  });
  expect(guide.status).toBe(201);
  const user = await createUser();
  f = {
    projectId: project.id,
    workflows: workflows.map((w) => ({ id: w.id, version: `${w.majorVersion}.${w.minorVersion}` })),
    subjectIds: subjects.map((s) => s.id),
    ownerToken: owner.token,
    volunteer: { id: user.id, login: user.login, password: user.password, token: await tokenFor(user) },
    tutorialId: tutorial.body.tutorials[0].id,
    guideId: guide.body.field_guides[0].id,
  };
});

const get = (path: string, token?: string) => call("GET", path, { token, accept: JSONAPI });

function classification(w: { id: number; version: string }, subjectId: number, annotations: unknown[]) {
  // As lib-classifier sends it (its metadata, trimmed of the browser's own figures).
  return {
    classifications: {
      annotations,
      completed: true,
      links: { project: String(f.projectId), subjects: [String(subjectId)], workflow: String(w.id) },
      metadata: {
        classifier_version: "2.0",
        feedback: {},
        finished_at: new Date().toISOString(),
        session: "19cce33131f9f0f3a3cccb151c17caf7d84dff654cec8d95cb2376162dbc1c2e",
        source: "api",
        started_at: new Date(Date.now() - 5000).toISOString(),
        subject_dimensions: [{ clientHeight: 661.5, clientWidth: 882, naturalHeight: 480, naturalWidth: 640 }],
        subject_selection_state: {
          already_seen: false,
          finished_workflow: false,
          retired: false,
          selected_at: new Date().toISOString(),
          selection_state: "normal",
          user_has_finished_workflow: false,
        },
        subject_flagged: false,
        user_agent: "Mozilla/5.0 HeadlessChrome/156.0.0.0",
        user_language: "en",
        utc_offset: "0",
        viewport: { width: 1400, height: 1000 },
        workflow_version: w.version,
      },
    },
  };
}

describe("lib-classifier's dev app, signed in, through a question, a drawing and a survey workflow", () => {
  it("loads the project, its workflows, field guide, translations, tutorial and queue as it asks for them", async () => {
    const {
      projectId: p,
      workflows: [w],
    } = f;
    const ids = f.workflows.map((x) => x.id).join("%2C");
    const project = await get(`/api/projects/${p}?http_cache=true`);
    expect(project.body.projects[0].links.active_workflows.map(Number).sort()).toEqual(f.workflows.map((x) => x.id).sort());
    const menu = await get(`/api/workflows?fields=completeness%2Cconfiguration%2Cdisplay_name%2Cgrouped&id=${ids}&http_cache=true`);
    expect(menu.body.workflows.map((x: { id: string }) => Number(x.id))).toEqual(f.workflows.map((x) => x.id));
    // Anonymous first: /me is a 401 the client expects.
    expect((await get(`/api/me?http_cache=true`)).status).toBe(401);
    const guides = await get(`/api/field_guides?project_id=${p}&http_cache=true`);
    expect(guides.body.field_guides[0]).toMatchObject({ id: f.guideId, items: [{ title: "Penguin", content: "A **flightless** bird." }] });
    expect((await get(`/api/field_guides/${f.guideId}/attached_images?page_size=100&http_cache=true`)).body.media).toEqual([]);
    for (const [type, id] of [
      ["workflow", w.id],
      ["field_guide", f.guideId],
      ["tutorial", f.tutorialId],
    ] as const) {
      const t = await get(`/api/translations?language=en&translated_id=${id}&translated_type=${type}&http_cache=true`);
      expect(t.status, `${type} translation`).toBe(200);
    }
    const workflow = await get(`/api/workflows/${w.id}?http_cache=true`);
    expect(workflow.body.workflows[0].tasks.T0.help).toBe("Look **closely**.");
    const tutorials = await get(`/api/tutorials?workflow_id=${w.id}&http_cache=true`);
    expect(tutorials.body.tutorials).toHaveLength(1);
    expect(tutorials.body.tutorials[0]).toMatchObject({
      id: f.tutorialId,
      kind: "tutorial",
      steps: [{ content: "Welcome! **Look**." }, { content: "Then answer." }],
    });
    expect((await get(`/api/tutorials/${f.tutorialId}/attached_images?http_cache=true`)).status).toBe(200);
    const queue = await get(`/api/subjects/queued?workflow_id=${w.id}&http_cache=true`);
    expect(queue.body.subjects.length).toBeGreaterThan(0);
  });

  it("signed in: the Login button's implicit grant sends the volunteer to the sign-in page", async () => {
    const authorize = await call(
      "GET",
      `/oauth/authorize?response_type=token&client_id=${env().PUBLIC_CLIENT_ID}` +
        `&redirect_uri=${encodeURIComponent(env().PUBLIC_URL ?? "http://localhost:3000")}`,
      { accept: "text/html" },
    );
    expect(authorize.status).toBe(302);
    expect(authorize.headers.get("location")).toMatch(/\/sign-in\?return_to=/);
  });

  it("signed in: preferences (created, then the tutorial's completion saved), roles, and three classifications stored", async () => {
    const { projectId: p, volunteer: v } = f;
    expect(
      (await get(`/api/project_preferences?project_id=${p}&user_id=${v.id}&http_cache=true`, v.token)).body.project_preferences,
    ).toEqual([]);
    expect((await get(`/api/project_roles?project_id=${p}&user_id=${v.id}&http_cache=true`, v.token)).body.project_roles).toEqual([]);
    const created = await call("POST", `/api/project_preferences?http_cache=true`, {
      token: v.token,
      body: { project_preferences: { links: { project: String(p) }, preferences: {} } },
    });
    expect(created.status).toBe(201);
    const prefId = created.body.project_preferences[0].id;
    const shown = await call("GET", `/api/project_preferences/${prefId}?http_cache=true`, { token: v.token, accept: JSONAPI });
    const completedAt = new Date().toISOString();
    const saved = await call("PUT", `/api/project_preferences/${prefId}?http_cache=true`, {
      token: v.token,
      headers: { "if-match": shown.headers.get("etag")! },
      body: { project_preferences: { preferences: { tutorials_completed_at: { [f.tutorialId]: completedAt } } } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.project_preferences[0].preferences).toEqual({ tutorials_completed_at: { [f.tutorialId]: completedAt } });

    const [question, drawing, survey] = f.workflows;
    const bodies = [
      classification(question, f.subjectIds[0], [{ task: "T0", taskType: "single", value: 0 }]),
      classification(drawing, f.subjectIds[1], [
        { task: "T0", taskType: "drawing", value: [{ frame: 0, toolIndex: 0, toolType: "point", x: 213.3, y: 160, details: [] }] },
      ]),
      classification(survey, f.subjectIds[1], [
        { task: "T0", taskType: "survey", value: [{ answers: { HWMN: "2" }, choice: "PNGN", filters: {} }] },
      ]),
    ];
    for (const body of bodies) {
      const res = await call("POST", `/api/classifications?http_cache=true`, { token: v.token, body });
      expect(res.status, res.text).toBe(201);
      expect(res.body.classifications[0].annotations).toEqual(
        body.classifications.annotations.map((a) => expect.objectContaining({ task: "T0", value: (a as { value: unknown }).value })),
      );
    }
  });
});

describe("the project app, anonymous then signed in through its own form", () => {
  it("home, classify and stats pages: counts (ERAS) and the anonymous token check", async () => {
    const p = f.projectId;
    // panoptes-client asks for a token from a session it may not have: a 401 it expects.
    expect(
      (
        await call("POST", "/oauth/token", {
          body: { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID },
          accept: "application/json",
        })
      ).status,
    ).toBe(401);
    const total = await call("GET", `/counts/classifications?project_id=${p}&end_date=${today}&start_date=${today}`, {
      accept: "application/json",
    });
    expect(total.status).toBe(200);
    expect(total.body).toHaveProperty("total_count");
    const daily = await call("GET", `/counts/classifications?end_date=${today}&period=day&project_id=${p}&start_date=${today}`, {
      accept: "application/json",
    });
    expect(daily.body.data).toEqual(expect.any(Array));
  });

  it("signs in with the form's requests (trailing slash, CSRF token, session cookie), then reads what a signed-in page asks for", async () => {
    const { projectId: p, volunteer: v } = f;
    const b = cookieJar();
    const csrf = (await b.send("GET", `/users/sign_in/?now=${Date.now()}`)).headers.get("x-csrf-token")!;
    const signedIn = await b.send(
      "POST",
      "/users/sign_in",
      { user: { login: v.login, password: v.password, remember_me: true } },
      { "x-csrf-token": csrf },
    );
    expect(signedIn.status).toBe(200);
    const tok = await b.send("POST", "/oauth/token", { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID });
    expect(tok.status).toBe(200);
    const token = tok.body.access_token as string;
    expect((await get(`/api/me?http_cache=true`, token)).body.users[0].login).toBe(v.login);
    const recents = await get(
      `/api/users/${v.id}/recents?include=subject&page_size=4&project_id=${p}&sort=-created_at&http_cache=true`,
      token,
    );
    expect(recents.body.recents.length).toBeGreaterThan(0);
    expect(recents.body.linked.subjects.length).toBeGreaterThan(0);
    expect(
      (
        await get(
          `/api/collections?favorite=false&current_user_roles=owner%2Ccollaborator%2Ccontributor&page_size=100&http_cache=true`,
          token,
        )
      ).status,
    ).toBe(200);
    expect((await get(`/api/users?id=${v.id}&http_cache=true`, token)).body.users[0].login).toBe(v.login);
    expect((await get(`/api/collections?favorite=true&project_ids=${p}&owner=${v.login}&http_cache=true`, token)).status).toBe(200);
    expect((await get(`/api/project_roles?project_id=${p}&user_id=${v.id}&http_cache=true`, token)).status).toBe(200);
    const mine = await call(
      "GET",
      `/counts/classifications/users/${v.id}/?end_date=${today}&period=day&start_date=${today}&project_id=${p}`,
      { token, accept: "application/json" },
    );
    expect(mine.status).toBe(200);
    const classify = await call("POST", `/api/classifications?http_cache=true`, {
      token,
      body: classification(f.workflows[0], f.subjectIds[2], [{ task: "T0", taskType: "single", value: 1 }]),
    });
    expect(classify.status).toBe(201);
  });
});
