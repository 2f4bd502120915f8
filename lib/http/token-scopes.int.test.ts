// Token scopes, on every route. Every exported method of every route file under app/ declares the OAuth
// scope a bearer token needs to call it (lib/http/route-scope.ts): a method without a declaration fails
// here, so a new route cannot forget it. Each declared scope is then tried on its route: a token of the
// records' owner carrying every scope but that one, and one carrying only `public`, are refused with 403
// and a JSON error naming the scope, and the database is as it was; a token carrying only the declared
// scope gets past the check. Writes that declare no scope are the flows that are their own authorization
// (sign-in, registration, password reset, signed uploads, OAuth) or refusals (404, 405), and nothing else.
// Last, requests that succeed with the scope (an engine configuration, a password change, ...) are refused
// without it and change nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ALL_SCOPES, type RouteScope, type Scope } from "@/lib/auth/scopes";
import { closeDb, db } from "@/lib/db";
import { changedTables, tableDigests, usePrivateDatabase } from "@/test/db-changes";
import { call, type CallResult } from "@/test/http";
import { HTTP_METHODS, routeFiles, routeTemplate } from "@/test/route-files";
import { declaredScope } from "./route-scope";

type Method = (typeof HTTP_METHODS)[number];
interface RouteMethod {
  template: string;
  method: Method;
  scope: RouteScope | undefined;
}

// Auth.js's module does not load outside Next (it imports next/server): its handlers stand in, so its route
// file's own declarations are what is read.
vi.mock("@/lib/auth/next-auth", () => ({
  handlers: { GET: async () => new Response(null, { status: 404 }), POST: async () => new Response(null, { status: 404 }) },
}));

const ROUTES: { file: string; template: string }[] = routeFiles().map((file) => ({ file, template: routeTemplate(file) }));

/** Writes that need no scope: each is its own authorization, or has none to give (a gone route). */
const WRITES_WITHOUT_SCOPE = new Set([
  "POST /auth/[...nextauth]", // Auth.js: our pages' sign-in
  "POST /inngest", // signed by the Inngest server
  "PUT /inngest",
  "POST /oauth/token", // the credentials are the body
  "POST /unsubscribe", // by email address, the same answer whoever asks
  "PUT /uploads/[...key]", // the signed URL is the authorization (issued by a write that needs `medium` or `project`)
  "POST /users", // registration
  "POST /users/password", // asks for a reset link by email
  "PUT /users/password", // the emailed reset token is the authorization
  "POST /users/sign_in",
  "DELETE /users/sign_out", // ends the caller's own session and token, whatever its scopes
  "POST /api/projects/[id]/workflow_contents_export", // 410 Gone
]);

const lacks = (scope: string) => `This token lacks the '${scope}' scope`;
const isScopeRefusal = (res: CallResult) => res.status === 403 && /This token lacks the '/.test(res.body?.errors?.[0]?.message ?? "");

interface Fixture {
  owner: Awaited<ReturnType<typeof import("@/test/factories").signedInUser>>;
  stranger: Awaited<ReturnType<typeof import("@/test/factories").signedInUser>>;
  /** The id a path parameter takes, by the path segment before it (or the parameter's name). */
  ids: Record<string, string>;
}
let fx: Fixture;

async function buildFixture(): Promise<Fixture> {
  const { signedInUser, createProject, createWorkflow, createSubjectSet, classificationBody } = await import("@/test/factories");
  const { createCollection, createGroupOwnedBy } = await import("@/test/factories-collections");
  const { createOrganization } = await import("@/test/factories-organizations");
  const { createFieldGuide, createTutorial } = await import("@/test/factories-project-content");
  const owner = await signedInUser();
  const stranger = await signedInUser();
  const project = await createProject(owner.user.id, { live: true });
  const workflow = await createWorkflow(project.id);
  const { set, subjects } = await createSubjectSet(project.id, 2, { workflowIds: [workflow.id] });
  const incomplete = await call("POST", "/api/classifications", {
    token: owner.token,
    body: classificationBody(workflow, [subjects[0].id], { completed: false }),
  });
  expect(incomplete.status, incomplete.text).toBe(201);
  const engine = await call("POST", "/engine/workflows", {
    token: owner.token,
    accept: "application/json",
    body: { workflow: { id: workflow.id, extractors_config: { q: { type: "question", task_key: "T0" } }, reducers_config: {} } },
  });
  expect(engine.status, engine.text).toBe(201);
  const collection = await createCollection({ userId: owner.user.id }, { subjectIds: [subjects[0].id], projectIds: [project.id] });
  const organization = await createOrganization(owner.user.id);
  const guide = await createFieldGuide(project.id);
  const tutorial = await createTutorial(project.id, { workflowIds: [workflow.id] });
  const group = (await createGroupOwnedBy(owner.user.id)) as { id: number };
  const ids = {
    projects: project.id,
    workflows: workflow.id,
    subject_sets: set.id,
    subjects: subjects[0].id,
    classifications: Number(incomplete.body.classifications[0].id),
    collections: collection.id,
    organizations: organization.id,
    field_guides: guide.id,
    tutorials: tutorial.id,
    user_groups: group.id,
    users: owner.user.id,
    subject_id: subjects[0].id,
    ids: subjects[1].id,
  };
  return {
    owner,
    stranger,
    ids: { ...Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)])), link: "subjects", key: "q" },
  };
}

/** A concrete path for a template: the fixture's records where the segment names their type, else 1. */
function concretePath(template: string): string {
  const segments = template.split("/");
  return segments
    .map((s, i) => {
      const catchAll = /^\[\.\.\.(\w+)\]$/.exec(s);
      if (catchAll) return "some/path";
      const param = /^\[(\w+)\]$/.exec(s);
      if (!param) return s;
      return fx.ids[param[1] === "id" ? segments[i - 1] : param[1]] ?? "1";
    })
    .join("/");
}

function send(method: Method, template: string, token: string) {
  const body = method === "POST" || method === "PUT" || method === "PATCH" ? {} : undefined;
  return call(method, concretePath(template), { token, body, headers: { "if-match": "*" } });
}

describe("token scopes on every route", () => {
  const declared: RouteMethod[] = [];

  beforeAll(async () => {
    await usePrivateDatabase("scopes");
    fx = await buildFixture();
    for (const { file, template } of ROUTES) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of HTTP_METHODS)
        if (typeof mod[method] === "function") declared.push({ template, method, scope: declaredScope(mod[method]) });
    }
  }, 120_000);

  afterAll(async () => {
    await closeDb();
  });

  it("walks every route file under app/", () => {
    expect(ROUTES.length).toBeGreaterThan(140);
    for (const t of [
      "/api/projects",
      "/engine/workflows",
      "/users",
      "/api/users/[id]",
      "/auth/[...nextauth]",
      "/inngest",
      "/.well-known/jwks.json",
    ])
      expect(ROUTES.map((r) => r.template)).toContain(t);
    expect(declared.length).toBeGreaterThan(ROUTES.length * 2);
  });

  it("every exported method declares its token scope", () => {
    const undeclared = declared.filter((r) => r.scope === undefined).map((r) => `${r.method} ${r.template}`);
    expect(undeclared).toEqual([]);
    for (const r of declared) expect([...ALL_SCOPES, "none"], `${r.method} ${r.template}`).toContain(r.scope);
  });

  it("declares the scopes the established platform asks for (and ours where it has none)", () => {
    const scopeOf = (method: Method, template: string) => declared.find((r) => r.method === method && r.template === template)?.scope;
    const expected: [Method, string, RouteScope][] = [
      ["POST", "/engine/workflows", "project"],
      ["GET", "/engine/workflows/[id]", "project"],
      ["GET", "/engine/workflows/[id]/reductions", "project"],
      ["PUT", "/users", "user"],
      ["PUT", "/api/users/[id]", "user"],
      ["DELETE", "/api/users/[id]", "user"],
      ["GET", "/api/me", "public"],
      ["GET", "/api/users/[id]", "none"],
      ["POST", "/api/users/[id]/avatar", "medium"],
      ["POST", "/api/projects", "project"],
      ["GET", "/api/projects", "none"],
      ["POST", "/api/projects/[id]/classifications_export", "project"],
      ["POST", "/api/subject_sets/[id]/imports", "project"],
      ["POST", "/api/workflows/[id]/retired_subjects", "project"],
      ["GET", "/api/workflow_versions", "project"],
      ["GET", "/api/workflows/[id]/versions", "project"],
      ["POST", "/api/classifications", "classification"],
      ["GET", "/api/classifications", "classification"],
      ["GET", "/api/classifications/gold_standard", "none"],
      ["POST", "/api/subjects", "subject"],
      ["GET", "/api/subjects", "none"],
      ["POST", "/api/collections", "collection"],
      ["GET", "/api/collection_preferences", "collection"],
      ["POST", "/api/user_groups", "group"],
      ["GET", "/api/memberships", "group"],
      ["POST", "/api/organizations", "organization"],
      ["POST", "/api/organizations/[id]/pages", "organization"],
      ["POST", "/api/projects/[id]/pages", "project"],
      ["POST", "/api/translations", "translation"],
      ["GET", "/api/project_preferences", "project"],
      ["GET", "/counts/classifications", "none"],
      ["GET", "/counts/classifications/users/[id]", "public"],
      ["POST", "/oauth/token", "none"],
    ];
    expect(expected.map(([m, t]) => `${m} ${t} ${scopeOf(m, t)}`)).toEqual(expected.map(([m, t, s]) => `${m} ${t} ${s}`));
  });

  it("a write without a scope is one of the flows that authorize themselves, or a refusal", async () => {
    const unexpected: string[] = [];
    for (const r of declared) {
      if (r.scope !== "none" || r.method === "GET" || r.method === "OPTIONS" || WRITES_WITHOUT_SCOPE.has(`${r.method} ${r.template}`))
        continue;
      const res = await send(r.method, r.template, fx.owner.token);
      if (res.status !== 404 && res.status !== 405) unexpected.push(`${r.method} ${r.template} → ${res.status}`);
    }
    expect(unexpected).toEqual([]);
  });

  it("a token without the declared scope is refused (403, JSON, nothing changed); the scope alone gets past the check", async () => {
    const { tokenFor } = await import("@/test/factories");
    const owner = await db().user.findUniqueOrThrow({ where: { id: fx.owner.user.id } });
    const stranger = await db().user.findUniqueOrThrow({ where: { id: fx.stranger.user.id } });
    const scoped = declared.filter((r): r is RouteMethod & { scope: Scope } => r.scope !== undefined && r.scope !== "none");
    expect(scoped.length).toBeGreaterThan(150);
    // Every token issued before the baseline (issuing one writes its grant).
    const tokens = new Map<string, string>();
    for (const scope of ALL_SCOPES) {
      tokens.set(
        `owner ${scope}`,
        await tokenFor(
          owner,
          ALL_SCOPES.filter((s) => s !== scope),
        ),
      );
      tokens.set(`stranger ${scope}`, await tokenFor(stranger, [scope]));
    }
    const publicOnly = await tokenFor(owner, ["public"]);

    const baseline = await tableDigests();
    const failures: string[] = [];
    let refused = 0;
    for (const r of scoped) {
      const cases: [string, string][] = [[`every scope but ${r.scope}`, tokens.get(`owner ${r.scope}`)!]];
      if (r.scope !== "public") cases.push(["public only", publicOnly]);
      for (const [label, token] of cases) {
        const res = await send(r.method, r.template, token);
        const what = `${r.method} ${r.template} with ${label}`;
        if (res.status !== 403) failures.push(`${what} → ${res.status}, not 403`);
        else if (res.body?.errors?.[0]?.message !== lacks(r.scope)) failures.push(`${what} → 403 '${res.text}'`);
        else refused++;
        if (!/json/.test(res.headers.get("content-type") ?? "")) failures.push(`${what} → not JSON`);
      }
    }
    // One comparison for all the refusals: any write among them shows (the tables that changed are named).
    expect(changedTables(baseline, await tableDigests())).toEqual([]);
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(300);

    // The declared scope alone is enough to pass the check (a stranger's token: the route goes on to refuse
    // or answer by its own rules, and with an empty body it creates nothing).
    const stuck: string[] = [];
    for (const r of scoped) {
      const res = await send(r.method, r.template, tokens.get(`stranger ${r.scope}`)!);
      if (isScopeRefusal(res) || res.status >= 500)
        stuck.push(`${r.method} ${r.template} with [${r.scope}] → ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(stuck).toEqual([]);
  });

  // Requests that succeed with the scope: without it, 403 and the record as it was.
  type User = Awaited<ReturnType<typeof import("@/test/factories").createUser>>;
  interface SucceedingCase {
    name: string;
    scope: Scope;
    ok: number;
    /** The request for a token of `user`, and what it would change. */
    prepare(user: User): Promise<{ request(token: string): Promise<CallResult>; state(): Promise<unknown> }>;
  }
  const SUCCEEDING: SucceedingCase[] = [
    {
      name: "POST /engine/workflows (an engine configuration)",
      scope: "project",
      ok: 201,
      async prepare(user) {
        const { createProject, createWorkflow } = await import("@/test/factories");
        const workflow = await createWorkflow((await createProject(user.id)).id);
        return {
          request: (token) =>
            call("POST", "/engine/workflows", {
              token,
              accept: "application/json",
              body: { workflow: { id: workflow.id, extractors_config: { q: { type: "question", task_key: "T0" } } } },
            }),
          state: async () => (await db().$queryRaw<unknown[]>`SELECT id FROM engine_workflows WHERE id = ${workflow.id}`).length,
        };
      },
    },
    {
      name: "PUT /users (a password change)",
      scope: "user",
      ok: 200,
      async prepare(user) {
        return {
          request: (token) =>
            call("PUT", "/users", {
              token,
              accept: "application/json",
              body: {
                user: {
                  current_password: user.password,
                  password: "another-horse-battery",
                  password_confirmation: "another-horse-battery",
                },
              },
            }),
          state: async () => (await db().user.findUniqueOrThrow({ where: { id: user.id } })).encryptedPassword,
        };
      },
    },
    {
      name: "PUT /api/users/<id> (the profile)",
      scope: "user",
      ok: 200,
      async prepare(user) {
        return {
          request: (token) =>
            call("PUT", `/api/users/${user.id}`, { token, body: { users: { display_name: "Renamed" } }, headers: { "if-match": "*" } }),
          state: async () => (await db().user.findUniqueOrThrow({ where: { id: user.id } })).displayName,
        };
      },
    },
    {
      name: "DELETE /api/users/<id> (the account)",
      scope: "user",
      ok: 204,
      async prepare(user) {
        return {
          request: (token) => call("DELETE", `/api/users/${user.id}`, { token }),
          state: async () => (await db().user.findUniqueOrThrow({ where: { id: user.id } })).disabledAt,
        };
      },
    },
    {
      name: "POST /api/projects",
      scope: "project",
      ok: 201,
      async prepare() {
        const name = `Scoped ${Date.now()}`;
        return {
          request: (token) => call("POST", "/api/projects", { token, body: { projects: { display_name: name } } }),
          state: () => db().project.count({ where: { displayName: name } }),
        };
      },
    },
  ];

  it.each(SUCCEEDING)("$name: refused without '$scope', changing nothing; done with it", async ({ scope, ok, prepare }) => {
    const { tokenFor, createUser } = await import("@/test/factories");
    // A user of its own per case (a password change ends the user's other tokens; a delete, the user).
    const user = await createUser();
    const { request, state } = await prepare(user);
    const before = await state();
    for (const scopes of [["public"], ALL_SCOPES.filter((s) => s !== scope)]) {
      const res = await request(await tokenFor(user, scopes));
      expect(res.status, res.text).toBe(403);
      expect(res.body.errors[0].message).toBe(lacks(scope));
      expect(await state()).toEqual(before);
    }
    const res = await request(await tokenFor(user, [scope]));
    expect(res.status, res.text).toBe(ok);
    expect(await state()).not.toEqual(before);
  });
});
