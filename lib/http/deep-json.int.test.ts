// JSON nested past MAX_JSON_DEPTH in a body is a 400 naming the limit, on every route that reads JSON,
// before anything recurses over it. Before, ~10,000 levels in a stored field (a project's configuration, a
// subject's metadata, a classification's annotations) overflowed JSON.stringify on the way to the
// database: a 500, or a throw out of the route (translations). Each body here is otherwise valid.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call } from "@/test/http";
import { classifiableProject, classificationBody } from "@/test/factories";
import { MAX_BODY_BYTES } from "./request";
import { MAX_JSON_DEPTH } from "@/lib/text/json-depth";

type Fixture = Awaited<ReturnType<typeof classifiableProject>>;
let f: Fixture;
beforeAll(async () => {
  f = await classifiableProject(1);
  const engine = await call("POST", "/engine/workflows", {
    token: f.owner.token,
    accept: "application/json",
    body: {
      workflow: {
        id: f.workflow.id,
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: {},
        rules_config: [],
      },
    },
  });
  expect(engine.status, engine.text).toBe(201);
});

const objects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
const arrays = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
/** The most `{"a":` levels that fit the body limit: the 5 MiB the probe's deepest bodies reached. */
const LIMIT_DEPTH = Math.floor((MAX_BODY_BYTES - 1000) / 6);

type Case = [string, string, (f: Fixture) => string, (deep: string, f: Fixture) => string, string?];
const JSON_API = undefined;
const PLAIN = "application/json";
const CASES: Case[] = [
  ["PUT", "project configuration", (f) => `/api/projects/${f.project.id}`, (d) => `{"projects":{"configuration":${d}}}`, JSON_API],
  ["PUT", "workflow configuration", (f) => `/api/workflows/${f.workflow.id}`, (d) => `{"workflows":{"configuration":${d}}}`, JSON_API],
  ["PUT", "subject set metadata", (f) => `/api/subject_sets/${f.set.id}`, (d) => `{"subject_sets":{"metadata":${d}}}`, JSON_API],
  ["PUT", "subject metadata", (f) => `/api/subjects/${f.subjects[0].id}`, (d) => `{"subjects":{"metadata":${d}}}`, JSON_API],
  [
    "POST",
    "new subject metadata",
    () => "/api/subjects",
    (d, f) =>
      `{"subjects":{"metadata":${d},"locations":[{"image/png":"https://example.org/a.png"}],"links":{"project":"${f.project.id}"}}}`,
    JSON_API,
  ],
  [
    "POST",
    "classification annotations",
    () => "/api/classifications",
    (d, f) =>
      JSON.stringify(classificationBody(f.workflow, [f.subjects[0].id])).replace(
        '"annotations":[',
        `"annotations":[{"task":"T0","value":${d}},`,
      ),
    JSON_API,
  ],
  [
    "POST",
    "translation strings (type in the query)",
    (f) => `/api/translations?translated_type=project&translated_id=${f.project.id}`,
    (d) => `{"translations":{"language":"fr","strings":${d}}}`,
    JSON_API,
  ],
  [
    "POST",
    "engine classification data",
    () => "/engine/classifications",
    (d, f) => `{"workflow_id":${f.workflow.id},"subject_id":${f.subjects[0].id},"data":${d}}`,
    PLAIN,
  ],
  [
    "PUT",
    "engine configuration",
    (f) => `/engine/workflows/${f.workflow.id}`,
    (d) => `{"workflow":{"extractors_config":{},"reducers_config":{},"rules_config":[{"if":${d},"then":[]}]}}`,
    PLAIN,
  ],
  [
    "POST",
    "engine dry run",
    (f) => `/engine/workflows/${f.workflow.id}/dry_run`,
    (d) => `{"classifications":[{"annotations":${d}}]}`,
    PLAIN,
  ],
  ["POST", "OAuth token", () => "/oauth/token", (d) => `{"grant_type":"password","client_id":${d}}`, PLAIN],
  [
    "POST",
    "registration",
    () => "/users",
    (d) => `{"user":{"login":"deep","email":"deep@example.org","password":"12345678","display_name":${d}}}`,
    PLAIN,
  ],
];

describe.each(CASES)("%s %s", (method, _what, path, body, accept) => {
  it.each([
    ["objects", MAX_JSON_DEPTH + 1, objects],
    ["arrays", MAX_JSON_DEPTH + 1, arrays],
    ["objects", 10_000, objects],
    ["objects", LIMIT_DEPTH, objects],
    ["arrays", 2_000_000, arrays],
  ])("%s nested %i deep: 400 naming the limit, nothing stored", async (_shape, depth, make) => {
    const before = await db().project.findUniqueOrThrow({ where: { id: f.project.id }, select: { updatedAt: true } });
    const raw = body(make(depth), f);
    expect(raw.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const res = await call(method, path(f), { token: f.owner.token, raw, accept, headers: { "if-match": "*" } });
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body.errors[0].message).toMatch(/nested too deeply/);
    expect(res.body.errors[0].message).toContain(String(MAX_JSON_DEPTH));
    expect((await db().project.findUniqueOrThrow({ where: { id: f.project.id }, select: { updatedAt: true } })).updatedAt).toEqual(
      before.updatedAt,
    );
  });
});

it("a body nested to the limit itself is read (and stored) as before", async () => {
  const deep = JSON.parse(objects(MAX_JSON_DEPTH - 3));
  const res = await call("PUT", `/api/projects/${f.project.id}`, {
    token: f.owner.token,
    body: { projects: { configuration: deep } },
    headers: { "if-match": "*" },
  });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.body.projects[0].configuration).toEqual(deep);
});

it("an engine subject rule's condition_string nested past the limit is a 422 naming it", async () => {
  const res = await call("POST", `/engine/workflows/${f.workflow.id}/subject_rules`, {
    token: f.owner.token,
    accept: PLAIN,
    body: { subject_rule: { condition_string: arrays(50_000) } },
  });
  expect(res.status, res.text.slice(0, 300)).toBe(422);
  expect(res.body.errors[0].message).toMatch(/condition_string is nested too deeply/);
});
