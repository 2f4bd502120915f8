// Small helpers the specs use to prepare data through the HTTP API (the same calls any client makes).
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { ADMIN_LOGIN, ADMIN_PASSWORD, PUBLIC_CLIENT_ID } from "./env";

export const API_ACCEPT = "application/vnd.api+json; version=1";

let counter = 0;
/** A name no earlier run (or other test in this run) has used: letters, digits and underscores only. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
}

export interface NewUser {
  login: string;
  email: string;
  password: string;
  display_name: string;
}

export function newUser(prefix = "e2e"): NewUser {
  const login = uniqueName(prefix);
  return { login, email: `${login}@example.org`, password: "correct horse battery", display_name: `Tester ${login}` };
}

/** POST /users (registration); returns the new user's id. */
export async function registerUser(request: APIRequestContext, user: NewUser): Promise<string> {
  const res = await request.post("/users", { data: { user }, headers: { Accept: "application/json" } });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return String(body.users[0].id);
}

/** An access token from POST /oauth/token (password grant with the first-party client). */
export async function accessToken(request: APIRequestContext, login = ADMIN_LOGIN, password = ADMIN_PASSWORD): Promise<string> {
  const res = await request.post("/oauth/token", { data: { grant_type: "password", client_id: PUBLIC_CLIENT_ID, login, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = await res.json();
  expect(body.access_token).toBeTruthy();
  return body.access_token as string;
}

export interface ProjectInput {
  display_name: string;
  description?: string;
  private?: boolean;
  live?: boolean;
  tags?: string[];
  introduction?: string;
  workflow_description?: string;
  researcher_quote?: string;
  /** Admins only: a launched project is listed on the home page (a beta one under "In beta"). */
  launch_approved?: boolean;
  beta_approved?: boolean;
}

/** POST /api/projects with a bearer token; returns the created project. */
export async function createProject(
  request: APIRequestContext,
  token: string,
  input: ProjectInput,
): Promise<{ id: string; display_name: string }> {
  const res = await request.post("/api/projects", {
    headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` },
    data: { projects: { primary_language: "en", description: `About ${input.display_name}`, ...input } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return body.projects[0];
}

const api = (token: string) => ({ Accept: API_ACCEPT, Authorization: `Bearer ${token}` });

/** The site admin approves the project's launch (the home page lists launched projects only). */
export async function approveLaunch(request: APIRequestContext, projectId: string): Promise<void> {
  const res = await request.put(`/api/projects/${projectId}`, {
    headers: { ...api(await accessToken(request)), "If-Match": "*" },
    data: { projects: { launch_approved: true } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** A workflow with one question and a set of `subjects` subjects in the project; returns ids for classifying. */
export async function classifiableWorkflow(request: APIRequestContext, token: string, projectId: string, subjects = 2) {
  const wf = await request.post("/api/workflows", {
    headers: api(token),
    data: {
      workflows: {
        display_name: uniqueName("wf"),
        tasks: { T0: { type: "single", question: "?", answers: [{ label: "Yes" }, { label: "No" }] } },
        first_task: "T0",
        links: { project: projectId },
      },
    },
  });
  expect(wf.status(), await wf.text()).toBe(201);
  const workflow = (await wf.json()).workflows[0];
  const subjectIds: string[] = [];
  for (let i = 0; i < subjects; i++) {
    const s = await request.post("/api/subjects", {
      headers: api(token),
      data: { subjects: { locations: [{ "image/png": `https://example.org/${i}.png` }], links: { project: projectId } } },
    });
    expect(s.status(), await s.text()).toBe(201);
    subjectIds.push((await s.json()).subjects[0].id);
  }
  const set = await request.post("/api/subject_sets", {
    headers: api(token),
    data: {
      subject_sets: { display_name: uniqueName("set"), links: { project: projectId, workflows: [workflow.id], subjects: subjectIds } },
    },
  });
  expect(set.status(), await set.text()).toBe(201);
  return { workflowId: workflow.id as string, version: workflow.version as string, subjectIds };
}

/** What postClassification sends: where, which subjects, the annotations (default: answer 0 of T0), and as whom. */
export interface ClassificationPost {
  project: string;
  workflow: string;
  version: string;
  subjects: string[];
  annotations?: unknown[];
  /** A bearer token; none: anonymous (each anonymous classification counts). */
  token?: string;
}

/** POST /api/classifications as a volunteer's browser would, expecting 201. */
export async function postClassification(request: APIRequestContext, c: ClassificationPost): Promise<void> {
  const res = await request.post("/api/classifications", {
    headers: { Accept: API_ACCEPT, ...(c.token ? { Authorization: `Bearer ${c.token}` } : {}) },
    data: {
      classifications: {
        annotations: c.annotations ?? [{ task: "T0", value: 0 }],
        metadata: {
          started_at: new Date().toISOString(),
          finished_at: new Date().toISOString(),
          user_agent: "e2e",
          user_language: "en",
          workflow_version: c.version,
        },
        links: { project: c.project, workflow: c.workflow, subjects: c.subjects },
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** POST /api/classifications n times (anonymously, so each one counts), answers alternating. */
export async function classify(
  request: APIRequestContext,
  projectId: string,
  w: { workflowId: string; version: string; subjectIds: string[] },
  n: number,
) {
  for (let i = 0; i < n; i++) {
    await postClassification(request, {
      project: projectId,
      workflow: w.workflowId,
      version: w.version,
      subjects: [w.subjectIds[i % w.subjectIds.length]],
      annotations: [{ task: "T0", value: i % 2 }],
    });
  }
}

/** Signs in through the sign-in page and waits until the header shows who is signed in. */
/**
 * Signs the page's browser context in the way the sign-in form does, through Auth.js's credentials
 * callback, without loading the form and the home page (the form itself is e2e/ui/auth.spec.ts's): the
 * session cookie lands in the context the page shares. The page stays where it was; callers go on with
 * page.goto.
 */
export async function signIn(page: Page, login: string, password: string) {
  const { csrfToken } = (await (await page.request.get("/auth/csrf")).json()) as { csrfToken: string };
  const res = await page.request.post("/auth/callback/credentials", {
    form: { csrfToken, login, password, callbackUrl: "/" },
    maxRedirects: 0,
  });
  const location = res.headers().location ?? "";
  expect(res.status(), `sign-in as ${login}`).toBe(302);
  expect(location, `sign-in as ${login}`).not.toMatch(/error/i);
  const session = await (await page.request.get("/auth/session")).json();
  expect(session?.user, `a session for ${login}`).toBeTruthy();
}

/** Creates a project from the lab's form (as the signed-in user) and returns its id; the page is then the project's lab page. */
export async function createProjectInLab(page: Page, name: string): Promise<string> {
  await page.goto("/lab");
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/lab\/projects\/\d+$/);
  return page.url().split("/").pop()!;
}

/** The id of the subject the classify page shows (its image's alt text names it). */
export async function currentSubject(page: Page): Promise<string> {
  const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
  await expect(image).toBeVisible();
  return (await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1];
}

/** Answers "Yes" and presses Done on the classify page; the volunteer moves on at once, whatever happens to the save. Returns the subject's id. */
export async function answer(page: Page): Promise<string> {
  const id = await currentSubject(page);
  await page.getByLabel("Yes").check();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("img", { name: new RegExp(`^Subject ${id},`) })).toHaveCount(0);
  return id;
}
