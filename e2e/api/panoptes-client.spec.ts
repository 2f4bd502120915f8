// The official Zooniverse JavaScript client (panoptes-client, unmodified) against the running app:
// browser-style sign-in (CSRF token, session cookie, token from the session), /me, and a project's
// whole life through the json-api-client (create, page, include, update with If-Match, delete).
import { createRequire } from "node:module";
import { expect, test } from "@playwright/test";
import { PUBLIC_CLIENT_ID } from "../env";
import { API_ACCEPT, newUser, uniqueName } from "../support";

const require = createRequire(import.meta.url);

// The client has no type definitions; these are the parts used here.
interface PanoptesResource {
  id: string;
  href?: string;
  login?: string;
  display_name?: string;
  description?: string;
  links: Record<string, unknown>;
  _headers: Record<string, string>;
  getMeta(key?: string): Record<string, unknown> | undefined;
  update(changes: Record<string, unknown>): PanoptesResource;
  save(): Promise<PanoptesResource>;
  delete(): Promise<null>;
  get(link: string, query?: Record<string, unknown>): Promise<PanoptesResource | PanoptesResource[]>;
}
interface PanoptesType {
  get(id: string, query?: Record<string, unknown>): Promise<PanoptesResource>;
  get(query: Record<string, unknown>): Promise<PanoptesResource[]>;
  create(data: Record<string, unknown>): PanoptesResource;
  _resourcesCache: Record<string, PanoptesResource>;
}
interface PanoptesApiClient {
  root: string;
  headers: Record<string, string>;
  get(url: string, query?: Record<string, unknown>): Promise<PanoptesResource[]>;
  type(name: string): PanoptesType;
}
interface PanoptesAuth {
  signIn(credentials: { login: string; password: string }): Promise<PanoptesResource>;
  checkCurrent(): Promise<PanoptesResource | null>;
  signOut(): Promise<null>;
}

test.describe.configure({ mode: "serial" });

test.describe("panoptes-client", () => {
  let auth: PanoptesAuth;
  let apiClient: PanoptesApiClient;
  const logs: string[] = [];
  const consoleMethods = ["log", "info", "warn", "error"] as const;
  const originalConsole = Object.fromEntries(consoleMethods.map((m) => [m, console[m]]));

  const user = newUser("pc_user");
  const projectName = uniqueName("Client project");

  test.beforeAll(async ({}, testInfo) => {
    const baseURL = testInfo.project.use.baseURL!;
    // The client is chatty; keep its messages and show them only when a test fails.
    for (const m of consoleMethods) console[m] = (...args: unknown[]) => void logs.push(`[${m}] ${args.map(String).join(" ")}`);

    // lib/config.js reads these when first required; NODE_ENV must be one it knows.
    process.env.PANOPTES_API_HOST = baseURL;
    process.env.PANOPTES_API_APPLICATION = PUBLIC_CLIENT_ID;
    if (process.env.NODE_ENV && !/^(production|staging|development|test)$/.test(process.env.NODE_ENV))
      (process.env as Record<string, string>).NODE_ENV = "test";
    auth = require("panoptes-client/lib/auth");
    apiClient = require("panoptes-client/lib/api-client");
    expect(apiClient.root).toBe(`${baseURL}/api`);

    // Registration with plain fetch, as a web form would.
    const res = await fetch(`${baseURL}/users`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ user }),
    });
    expect(res.status, await res.text()).toBe(201);
  });

  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus && logs.length)
      await testInfo.attach("panoptes-client console", { body: logs.join("\n") });
    logs.length = 0;
  });

  test.afterAll(() => {
    for (const m of consoleMethods) console[m] = originalConsole[m];
  });

  test("nobody is signed in at first", async () => {
    expect(await auth.checkCurrent()).toBeNull();
  });

  test("signs in and reads /me", async () => {
    const signedIn = await auth.signIn({ login: user.login, password: user.password });
    expect(signedIn.login).toBe(user.login);
    expect(apiClient.headers.Authorization).toMatch(/^Bearer .+/);

    const current = await auth.checkCurrent();
    expect(current?.login).toBe(user.login);

    const [me] = await apiClient.get("/me");
    expect(me.login).toBe(user.login);
    expect(me.display_name).toBe(user.display_name);
    expect(me.id).toBe(signedIn.id);
  });

  test("creates, pages, includes, updates and deletes a project", async ({ baseURL }) => {
    const projects = apiClient.type("projects");

    // create
    const project = await projects
      .create({ display_name: projectName, description: "Made by panoptes-client", primary_language: "en" })
      .save();
    expect(project.id).toMatch(/^\d+$/);
    expect(project.display_name).toBe(projectName);
    const [me] = await apiClient.get("/me");
    expect((project.links.owner as { id: string }).id).toBe(me.id);

    // two more, then page through the user's projects two at a time
    for (const n of [2, 3]) await projects.create({ display_name: `${projectName} ${n}`, description: "", primary_language: "en" }).save();
    const page1 = await projects.get({ owner: user.login, page_size: 2, page: 1, sort: "id" });
    expect(page1.map((p) => p.display_name)).toEqual([projectName, `${projectName} 2`]);
    const meta1 = page1[0].getMeta()!;
    expect(meta1).toMatchObject({ page: 1, page_size: 2, count: 3, page_count: 2, next_page: 2, previous_page: null });
    const page2 = await projects.get({ owner: user.login, page_size: 2, page: meta1.next_page, sort: "id" });
    expect(page2.map((p) => p.display_name)).toEqual([`${projectName} 3`]);
    expect(page2[0].getMeta()).toMatchObject({ page: 2, next_page: null, previous_page: 1 });

    // get with include=owners: the owner arrives in `linked.owners` (the established platform's name); the
    // record says it is of type users, and lands in the client's users cache
    const withOwner = await projects.get(project.id, { include: "owners" });
    expect(withOwner).toBe(project); // the client keeps one record per id
    const ownerLink = withOwner.links.owner as { id: string; type: string };
    expect(ownerLink).toMatchObject({ id: me.id, type: "users" });
    expect(apiClient.type("users")._resourcesCache[ownerLink.id]?.login).toBe(user.login);
    const owner = (await withOwner.get("owner")) as PanoptesResource;
    expect(owner.login).toBe(user.login);

    // update: the client refreshes the record and sends its ETag as If-Match
    const etagBefore = project._headers.etag;
    expect(etagBefore).toBeTruthy();
    await project.update({ description: "Updated by panoptes-client" }).save();
    expect(project.description).toBe("Updated by panoptes-client");
    expect(project._headers.etag).not.toBe(etagBefore);
    const reread = await projects.get(project.id, {}); // a query forces a request instead of the cache
    expect(reread.description).toBe("Updated by panoptes-client");

    // delete, then it is gone for the client and for anyone else
    const id = project.id;
    await project.delete();
    const gone = await projects.get(id, {}).then(
      () => null,
      (err: { status?: number }) => err,
    );
    expect(gone?.status).toBe(404);
    const res = await fetch(`${baseURL}/api/projects/${id}`, { headers: { Accept: API_ACCEPT } });
    expect(res.status).toBe(404);
  });

  test("builds a workflow, subjects and a set, then classifies from the queue", async () => {
    const project = await apiClient
      .type("projects")
      .create({ display_name: `${projectName} classify`, description: "", primary_language: "en" })
      .save();
    const workflow = await apiClient
      .type("workflows")
      .create({
        display_name: "Is there a cat?",
        tasks: { T0: { type: "single", question: "Cat?", answers: [{ label: "Yes" }, { label: "No" }] } },
        first_task: "T0",
        retirement: { criteria: "classification_count", options: { count: 1 } },
        links: { project: project.id },
      })
      .save();
    const subjects: PanoptesResource[] = [];
    for (const n of [1, 2]) {
      subjects.push(
        await apiClient
          .type("subjects")
          .create({
            locations: [{ "image/png": `https://example.test/cat${n}.png` }],
            metadata: { name: `cat${n}` },
            links: { project: project.id },
          })
          .save(),
      );
    }
    const set = await apiClient
      .type("subject_sets")
      .create({ display_name: "Cats", links: { project: project.id, workflows: [workflow.id], subjects: subjects.map((s) => s.id) } })
      .save();
    expect((set as unknown as { set_member_subjects_count: number }).set_member_subjects_count).toBe(2);

    const queue = await apiClient.get("/subjects/queued", { workflow_id: workflow.id });
    expect(queue.map((s) => s.id).sort()).toEqual(subjects.map((s) => s.id).sort());
    const subject = queue[0];
    const version = (workflow as unknown as { version: string }).version;
    const classification = await apiClient
      .type("classifications")
      .create({
        annotations: [{ task: "T0", value: 0 }],
        metadata: {
          started_at: new Date().toISOString(),
          finished_at: new Date().toISOString(),
          user_agent: "panoptes-client",
          user_language: "en",
          workflow_version: version,
        },
        links: { project: project.id, workflow: workflow.id, subjects: [subject.id] },
      })
      .save();
    expect(classification.id).toMatch(/^\d+$/);
    expect(classification.links).toMatchObject({ workflow: workflow.id, subjects: [subject.id] });

    // Retired after one classification (the workflow's retirement count): only the other subject is left.
    const next = await apiClient.get("/subjects/queued", { workflow_id: workflow.id });
    expect(next.map((s) => s.id)).toEqual(subjects.map((s) => s.id).filter((id) => id !== subject.id));
    const mine = await apiClient.type("classifications").get({ workflow_id: workflow.id });
    expect(mine.map((c) => c.id)).toEqual([classification.id]);
  });

  test("signs out", async () => {
    expect(await auth.signOut()).toBeNull();
    expect(apiClient.headers.Authorization).toBeUndefined();
    expect(await auth.checkCurrent()).toBeNull();
  });
});
