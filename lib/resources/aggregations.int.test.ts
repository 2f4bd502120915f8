import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  AGGREGATION_SERVICE_TIMEOUT_MS,
  AggregationServiceError,
  NO_AGGREGATION_SERVICE,
  requestAggregationRun,
} from "@/lib/domain/start-aggregation";
import { api } from "@/test/http";
import { createProject, createWorkflow, grantProjectRole, signedInUser } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

// Aggregation runs: visible to and managed by the editors of the workflow's project; POST records the run
// and asks the aggregation service (a local HTTP server here) to start it.

type Res = { status: number; body: any; text: string };
type TestUser = Awaited<ReturnType<typeof signedInUser>>;
const ids = (list: { id: string }[]) => list.map((r) => Number(r.id)).sort((a, b) => a - b);
const HEX32 = "0123456789abcdef0123456789abcdef";

const ROLES = ["collaborator", "tester", "scientist", "moderator", "translator", "expert"] as const;

/** A project with a workflow, a user in each project role, a stranger and an admin. */
async function projectCast(opts: { private?: boolean } = {}) {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id, { private: opts.private });
  const workflow = await createWorkflow(project.id);
  const roles = {} as Record<(typeof ROLES)[number], TestUser>;
  for (const role of ROLES) {
    roles[role] = await signedInUser();
    await grantProjectRole(project.id, roles[role].user.id, [role]);
  }
  return { project, workflow, users: { owner, ...roles, stranger: await signedInUser(), admin: await signedInUser({ admin: true }) } };
}

function createRun(workflow: { id: number; projectId: number }, userId: number, data: { status?: string; uuid?: string } = {}) {
  return db().aggregation.create({ data: { workflowId: workflow.id, projectId: workflow.projectId, userId, ...data } });
}

const runBody = (userId: number | string, workflowId: number | string) => ({
  aggregations: { links: { user: String(userId), workflow: String(workflowId) } },
});

interface ServiceRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: any;
}

/** A stand-in aggregation service on 127.0.0.1; `answer` decides each response. */
async function startService(answer: (body: any, res: http.ServerResponse) => void | Promise<void>) {
  const requests: ServiceRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? JSON.parse(text) : null;
      requests.push({ method: req.method!, path: req.url!, contentType: req.headers["content-type"], body });
      await answer(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, requests, close };
}

const answerJson = (status: number, body: unknown) => (_: unknown, res: http.ServerResponse) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

// The stand-in services listen on 127.0.0.1, which the outbound guard refuses unless the operator allows it.
beforeAll(() => {
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});
afterAll(() => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
});
beforeEach(() => {
  delete process.env.AGGREGATION_SERVICE_URL;
});
afterEach(() => {
  delete process.env.AGGREGATION_SERVICE_URL;
});

resourceContract({
  type: "aggregations",
  async setup() {
    const { workflow, users } = await projectCast({ private: true });
    const run = await createRun(workflow, users.owner.user.id);
    // Every role that sees a run may also edit it, so the contract's edit and destroy checks (which need a
    // read-only reader) are the tests below.
    return { id: run.id, writer: users.owner.token, reader: users.collaborator.token, stranger: users.stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    for (let i = 0; i < n; i++) await createRun(await createWorkflow(project.id), owner.user.id);
    return { query: `project_id=${project.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id);
    return { record: runBody(owner.user.id, workflow.id).aggregations, token: owner.token };
  },
  async privateRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const run = await createRun(await createWorkflow(project.id), owner.user.id);
    return { id: run.id, insider: owner.token, stranger: (await signedInUser()).token };
  },
  includes: [],
  sortable: ["created_at", "updated_at"],
});

describe("aggregations: visibility", () => {
  const positions = ["anonymous", "stranger", ...ROLES, "owner", "admin"] as const;
  const editors = new Set(["collaborator", "owner", "admin"]);

  for (const vis of ["public", "private"] as const) {
    it(`shows the runs of a ${vis} project to its editors and admins only (404 to everyone else)`, async () => {
      const { workflow, users } = await projectCast({ private: vis === "private" });
      const run = await createRun(workflow, users.owner.user.id);
      for (const who of positions) {
        const token = who === "anonymous" ? undefined : users[who].token;
        const sees = editors.has(who);
        expect((await api.get(`/aggregations/${run.id}`, { token })).status, who).toBe(sees ? 200 : 404);
        expect((await api.get(`/aggregations?workflow_id=${workflow.id}`, { token })).body.aggregations.length, who).toBe(sees ? 1 : 0);
      }
    });
  }

  it("filters by project_id, workflow_id and user_id, and sorts by updated_at by default", async () => {
    const { project, workflow, users } = await projectCast();
    const other = await createWorkflow(project.id);
    const a = await createRun(workflow, users.owner.user.id);
    const b = await createRun(workflow, users.collaborator.user.id);
    const c = await createRun(other, users.owner.user.id);
    const list = async (q: string) => ids((await api.get(`/aggregations?${q}`, { token: users.admin.token })).body.aggregations);
    const cases: [string, number[]][] = [
      [`project_id=${project.id}`, [a.id, b.id, c.id]],
      [`workflow_id=${workflow.id}`, [a.id, b.id]],
      [`workflow_id=${workflow.id},${other.id}&user_id=${users.owner.user.id}`, [a.id, c.id]],
      [`project_id=${project.id}&user_id=${users.collaborator.user.id}`, [b.id]],
    ];
    for (const [q, expected] of cases) expect(await list(q), q).toEqual(expected);
    await db().aggregation.update({ where: { id: a.id }, data: { status: "pending" } });
    const ordered = (await api.get(`/aggregations?project_id=${project.id}`, { token: users.admin.token })).body.aggregations.map(
      (r: { id: string }) => Number(r.id),
    );
    expect(ordered).toEqual([b.id, c.id, a.id]);
    for (const q of ["project_id=x", "workflow_id=1,y", "user_id=-2", "sort=status"])
      expect((await api.get(`/aggregations?${q}`, { token: users.admin.token })).status, q).toBe(422);
  });
});

describe("aggregations: create", () => {
  it("records the run `created` and says why when no aggregation service is configured", async () => {
    const { project, workflow, users } = await projectCast();
    const res = await api.post("/aggregations", runBody(users.collaborator.user.id, workflow.id), { token: users.collaborator.token });
    expect(res.status).toBe(201);
    const run = res.body.aggregations[0];
    expect(run).toMatchObject({
      status: "created",
      task_id: null,
      uuid: null,
      error: NO_AGGREGATION_SERVICE,
      workflow_id: String(workflow.id),
      project_id: String(project.id),
      user_id: String(users.collaborator.user.id),
      href: `/aggregations/${run.id}`,
      links: { workflow: String(workflow.id), project: String(project.id), user: String(users.collaborator.user.id) },
    });
    expect(res.body.links).toEqual({
      "aggregations.workflow": { href: "/workflows/{aggregations.workflow}", type: "workflows" },
      "aggregations.project": { href: "/projects/{aggregations.project}", type: "projects" },
      "aggregations.user": { href: "/users/{aggregations.user}", type: "users" },
    });
    expect(await db().aggregation.findUniqueOrThrow({ where: { id: Number(run.id) } })).toMatchObject({
      status: "created",
      error: NO_AGGREGATION_SERVICE,
    });
  });

  it("asks the service to run it (POST /run_aggregation with the ids), stores the task id and moves it to pending", async () => {
    const service = await startService(answerJson(200, { task_id: "task-8f2c" }));
    try {
      process.env.AGGREGATION_SERVICE_URL = `${service.url}/`;
      const { project, workflow, users } = await projectCast({ private: true });
      const res = await api.post("/aggregations", runBody(users.owner.user.id, workflow.id), { token: users.owner.token });
      expect(res.status).toBe(201);
      expect(res.body.aggregations[0]).toMatchObject({ status: "pending", task_id: "task-8f2c", error: null });
      expect(service.requests).toEqual([
        {
          method: "POST",
          path: "/run_aggregation",
          contentType: "application/json",
          body: { project_id: project.id, workflow_id: workflow.id, user_id: users.owner.user.id },
        },
      ]);
      // The answer's ETag is the stored record's.
      const shown = await api.get(`/aggregations/${res.body.aggregations[0].id}`, { token: users.owner.token });
      expect(shown.headers.get("etag")).toBe(res.headers.get("etag"));
    } finally {
      await service.close();
    }
  });

  it("keeps a run the service cannot take `created`, with the reason, and still answers 201", async () => {
    const down = await startService(answerJson(200, {}));
    await down.close();
    const cases: [string, (body: any, res: http.ServerResponse) => void, RegExp, string?][] = [
      [
        "a server error",
        (_, res) => res.writeHead(500, { "content-type": "text/plain" }).end("worker pool exhausted"),
        /^The aggregation service answered 500$/,
      ],
      ["a refusal without a body", (_, res) => res.writeHead(503).end(), /^The aggregation service answered 503$/],
      ["no task_id", answerJson(200, { status: "queued" }), /answered 200 without a task_id/],
      [
        "a body that is not JSON",
        (_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>"),
        /answered 200 with a body that is not JSON/,
      ],
      ["an unreachable service", answerJson(200, { task_id: "never" }), /^The aggregation service could not be reached: /, down.url],
      ["a URL that is not one", answerJson(200, { task_id: "never" }), /^AGGREGATION_SERVICE_URL is not a URL: not a url$/, "not a url"],
    ];
    for (const [what, answer, message, url] of cases) {
      const service = await startService(answer);
      try {
        process.env.AGGREGATION_SERVICE_URL = url ?? service.url;
        const { workflow, users } = await projectCast();
        const res = await api.post("/aggregations", runBody(users.owner.user.id, workflow.id), { token: users.owner.token });
        expect(res.status, what).toBe(201);
        expect(res.body.aggregations[0], what).toMatchObject({ status: "created", task_id: null });
        expect(res.body.aggregations[0].error, what).toMatch(message);
        const stored = await db().aggregation.findUniqueOrThrow({ where: { id: Number(res.body.aggregations[0].id) } });
        expect(stored.error, what).toMatch(message);
      } finally {
        await service.close();
      }
    }
  });

  it("reaches the service through the outbound guard: on loopback, nobody allowing it, it is not called", async () => {
    const service = await startService(answerJson(200, { task_id: "never" }));
    try {
      delete process.env.OUTBOUND_ALLOW_HOSTS;
      process.env.AGGREGATION_SERVICE_URL = service.url;
      const { workflow, users } = await projectCast();
      const res = await api.post("/aggregations", runBody(users.owner.user.id, workflow.id), { token: users.owner.token });
      expect(res.status).toBe(201);
      expect(res.body.aggregations[0]).toMatchObject({
        status: "created",
        error:
          "The aggregation service could not be reached: address 127.0.0.1 is not allowed (loopback) (OUTBOUND_ALLOW_HOSTS can allow it)",
      });
      expect(service.requests).toEqual([]);
    } finally {
      process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
      await service.close();
    }
  });

  it("gives up on a service that does not answer in time (10 s by default)", async () => {
    expect(AGGREGATION_SERVICE_TIMEOUT_MS).toBe(10_000);
    const silent = await startService(() => undefined);
    try {
      const started = Date.now();
      const call = requestAggregationRun(silent.url, { project_id: 1, workflow_id: 2, user_id: 3 }, 200);
      await expect(call).rejects.toBeInstanceOf(AggregationServiceError);
      await expect(call).rejects.toThrow("The aggregation service did not answer within 0.2 s");
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await silent.close();
    }
  });

  it("keeps what the service reported if it reports back before its answer arrives", async () => {
    const service = await startService(async (body, res) => {
      await db().aggregation.updateMany({
        where: { workflowId: body.workflow_id, userId: body.user_id },
        data: { status: "completed", uuid: HEX32 },
      });
      answerJson(200, { task_id: "fast-task" })(body, res);
    });
    try {
      process.env.AGGREGATION_SERVICE_URL = service.url;
      const { workflow, users } = await projectCast();
      const res = await api.post("/aggregations", runBody(users.owner.user.id, workflow.id), { token: users.owner.token });
      expect(res.status).toBe(201);
      expect(res.body.aggregations[0]).toMatchObject({ status: "completed", uuid: HEX32, task_id: "fast-task" });
    } finally {
      await service.close();
    }
  });

  it("refuses those who may not run it and bad bodies, creating nothing and calling no service", async () => {
    const service = await startService(answerJson(200, { task_id: "t" }));
    try {
      process.env.AGGREGATION_SERVICE_URL = service.url;
      const priv = await projectCast({ private: true });
      const pub = await projectCast();
      const existing = await createRun(pub.workflow, pub.users.owner.user.id);
      const post = (body: object, token?: string) => api.post("/aggregations", body, { token });
      const cases: [string, Promise<Res>, number, RegExp][] = [
        ["anonymous", post(runBody(priv.users.owner.user.id, priv.workflow.id)), 401, /signed in/],
        [
          "a tester",
          post(runBody(priv.users.tester.user.id, priv.workflow.id), priv.users.tester.token),
          403,
          /Only the project's owner and collaborators may run aggregations/,
        ],
        [
          "a stranger, private project",
          post(runBody(priv.users.stranger.user.id, priv.workflow.id), priv.users.stranger.token),
          404,
          /Could not find workflows/,
        ],
        [
          "a stranger, public project",
          post(runBody(pub.users.stranger.user.id, pub.workflow.id), pub.users.stranger.token),
          403,
          /Only the project's owner and collaborators/,
        ],
        [
          "an editor, for another user",
          post(runBody(priv.users.tester.user.id, priv.workflow.id), priv.users.collaborator.token),
          403,
          /links.user must be the current user/,
        ],
        [
          "an admin, for a missing user",
          post(runBody(99999999, priv.workflow.id), priv.users.admin.token),
          422,
          /links.user: no user with id 99999999/,
        ],
        [
          "a second run",
          post(runBody(pub.users.owner.user.id, pub.workflow.id), pub.users.owner.token),
          400,
          new RegExp(`already has an aggregation run of workflow ${pub.workflow.id} \\(aggregations/${existing.id}\\); delete it`),
        ],
        ["a missing workflow", post(runBody(priv.users.owner.user.id, 99999999), priv.users.owner.token), 404, /Could not find workflows/],
        [
          "a malformed workflow id",
          post(runBody(priv.users.owner.user.id, "abc"), priv.users.owner.token),
          422,
          /links.workflow must be a positive integer id/,
        ],
        [
          "no links.user",
          post({ aggregations: { links: { workflow: String(priv.workflow.id) } } }, priv.users.owner.token),
          422,
          /links.user/,
        ],
        [
          "status is not settable",
          post(
            { aggregations: { ...runBody(priv.users.owner.user.id, priv.workflow.id).aggregations, status: "completed" } },
            priv.users.owner.token,
          ),
          422,
          /unknown key\(s\) 'status'/,
        ],
      ];
      for (const [what, send, status, message] of cases) {
        const res = await send;
        expect(res.status, what).toBe(status);
        expect(res.body.errors[0].message, what).toMatch(message);
      }
      expect(await db().aggregation.count({ where: { workflowId: { in: [priv.workflow.id, pub.workflow.id] } } })).toBe(1);
      expect(service.requests).toEqual([]);

      // An admin may start a run for someone else; the client deletes a run before starting another.
      const forOther = await post(runBody(priv.users.collaborator.user.id, priv.workflow.id), priv.users.admin.token);
      expect(forOther.status).toBe(201);
      expect(forOther.body.aggregations[0].links.user).toBe(String(priv.users.collaborator.user.id));
      const path = `/aggregations/${existing.id}`;
      const etag = (await api.get(path, { token: pub.users.owner.token })).headers.get("etag")!;
      expect((await api.delete(path, { token: pub.users.owner.token, headers: { "if-match": etag } })).status).toBe(204);
      expect((await post(runBody(pub.users.owner.user.id, pub.workflow.id), pub.users.owner.token)).status).toBe(201);
    } finally {
      await service.close();
    }
  });
});

describe("aggregations: the service reports back (PUT) and runs are deleted", () => {
  it("moves status and stores the uuid for the project's editors and admins", async () => {
    const { workflow, users } = await projectCast({ private: true });
    const run = await createRun(workflow, users.owner.user.id, { status: "created" });
    await db().aggregation.update({ where: { id: run.id }, data: { error: "The aggregation service answered 503" } });
    const path = `/aggregations/${run.id}`;
    const put = async (token: string, body: object) =>
      api.put(
        path,
        { aggregations: body },
        { token, headers: { "if-match": (await api.get(path, { token: users.admin.token })).headers.get("etag")! } },
      );
    const steps: [string, TestUser, object, object][] = [
      ["status alone", users.collaborator, { status: "pending" }, { status: "pending", uuid: null, error: null }],
      ["uuid alone", users.owner, { uuid: HEX32 }, { status: "pending", uuid: HEX32 }],
      ["completed, with the stored uuid", users.admin, { status: "completed" }, { status: "completed", uuid: HEX32 }],
      ["failed", users.collaborator, { status: "failed" }, { status: "failed" }],
      [
        "completed with a new uuid",
        users.owner,
        { status: "completed", uuid: "f".repeat(32) },
        { status: "completed", uuid: "f".repeat(32) },
      ],
    ];
    for (const [what, user, body, after] of steps) {
      const res = await put(user.token, body);
      expect(res.status, what).toBe(200);
      expect(res.body.aggregations[0], what).toMatchObject(after);
    }
  });

  it.each([
    ["unset", undefined, "completed", HEX32, null],
    [
      "set, completed",
      "https://store.example.org/{uuid}/{workflow_id}_aggregation.zip",
      "completed",
      HEX32,
      `https://store.example.org/${HEX32}/WF_aggregation.zip`,
    ],
    ["set, still pending", "https://store.example.org/{uuid}.zip", "pending", HEX32, null],
    ["set, completed without a uuid", "https://store.example.org/{uuid}.zip", "completed", null, null],
  ])("results_url with AGGREGATION_RESULTS_URL %s", async (_n, template, status, uuid, want) => {
    const { workflow, users } = await projectCast({ private: false });
    const run = await createRun(workflow, users.owner.user.id, { status: "created" });
    await db().aggregation.update({ where: { id: run.id }, data: { status, uuid } });
    if (template) process.env.AGGREGATION_RESULTS_URL = template;
    try {
      const res = await api.get(`/aggregations/${run.id}`, { token: users.owner.token });
      expect(res.body.aggregations[0].results_url).toBe(want === null ? null : want.replace("WF", String(workflow.id)));
    } finally {
      delete process.env.AGGREGATION_RESULTS_URL;
    }
  });

  it("rejects bad reports and those who may not report, changing nothing", async () => {
    const { workflow, users } = await projectCast({ private: true });
    const run = await createRun(workflow, users.owner.user.id);
    const path = `/aggregations/${run.id}`;
    const etag = (await api.get(path, { token: users.owner.token })).headers.get("etag")!;
    const put = (body: object, token?: string) => api.put(path, { aggregations: body }, { token, headers: { "if-match": etag } });
    const cases: [string, Promise<Res>, number, RegExp][] = [
      ["an uppercase uuid", put({ uuid: HEX32.toUpperCase() }, users.owner.token), 422, /uuid must be 32 lowercase hexadecimal characters/],
      ["a short uuid", put({ uuid: "abc123" }, users.owner.token), 422, /uuid must be 32 lowercase hexadecimal/],
      ["a dashed uuid", put({ uuid: "01234567-89ab-cdef-0123-456789abcdef" }, users.owner.token), 422, /uuid must be 32 lowercase/],
      ["an unknown status", put({ status: "done" }, users.owner.token), 422, /status must be one of created, pending, completed, failed/],
      ["completed without a uuid", put({ status: "completed" }, users.owner.token), 422, /status completed requires a uuid/],
      ["nothing to change", put({}, users.owner.token), 422, /Send uuid and\/or status/],
      ["task_id is not settable", put({ task_id: "x" }, users.owner.token), 422, /unknown key\(s\) 'task_id'/],
      ["a tester", put({ status: "failed" }, users.tester.token), 404, /Could not find aggregations/],
      ["a stranger", put({ status: "failed" }, users.stranger.token), 404, /Could not find aggregations/],
      ["anonymous", put({ status: "failed" }), 401, /signed in/],
      [
        "a stale If-Match",
        api.put(path, { aggregations: { status: "failed" } }, { token: users.owner.token, headers: { "if-match": '"old"' } }),
        412,
        /If-Match/,
      ],
    ];
    for (const [what, send, status, message] of cases) {
      const res = await send;
      expect(res.status, what).toBe(status);
      expect(res.body.errors[0].message, what).toMatch(message);
    }
    expect(await db().aggregation.findUniqueOrThrow({ where: { id: run.id } })).toEqual(run);
  });

  it("is deleted by those who may destroy the project (owner, collaborator, admin), hidden from others", async () => {
    const { workflow, users } = await projectCast({ private: true });
    for (const deleter of ["owner", "collaborator", "admin"] as const) {
      const run = await createRun(workflow, users[deleter].user.id);
      const path = `/aggregations/${run.id}`;
      const etag = (await api.get(path, { token: users.owner.token })).headers.get("etag")!;
      const refused: [string, string | undefined, number][] = [
        ["anonymous", undefined, 401],
        ["a tester", users.tester.token, 404],
        ["a scientist", users.scientist.token, 404],
        ["a stranger", users.stranger.token, 404],
      ];
      for (const [who, token, status] of refused)
        expect((await api.delete(path, { token, headers: { "if-match": etag } })).status, who).toBe(status);
      expect((await api.delete(path, { token: users.owner.token })).status).toBe(428);
      expect(await db().aggregation.count({ where: { id: run.id } })).toBe(1);
      expect((await api.delete(path, { token: users[deleter].token, headers: { "if-match": etag } })).status, deleter).toBe(204);
      expect(await db().aggregation.count({ where: { id: run.id } })).toBe(0);
    }
  });
});
