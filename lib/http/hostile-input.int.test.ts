// Hostile input, property-based (fast-check): generated requests to every route under /api, /engine,
// /counts, /oauth, /users and /uploads — every method, path segments that are ids of real records or
// garbage, unknown and malformed query parameters, wrong and missing headers, forged credentials, and
// bodies from valid-looking resource envelopes with wrong types to malformed JSON and deep nesting.
// Classes that were 500s are generated on purpose in every place they can occur: names Object.prototype
// has (`constructor`, `__proto__`, `toString`, ...) as every parameter name and value, body key and value,
// path segment, engine key, task key and survey choice; numbers past 2^31 and 2^53, negative, and in
// exponent forms (1e309) in every numeric parameter, path id and JSON number; `%`, `_`, `\` and NUL in
// every string filter; JSON nested from just past the 512-level limit up to the 5 MiB body limit; and valid
// writes (a classification, engine ingest, reductions, configuration, dry runs) with one value replaced by
// an object with its own `toString`/`valueOf`, a prototype name or an out-of-range number.
// Properties: no answer is a 5xx; every refused request (4xx) carries a JSON error with a message; and a
// refused request changed nothing in the database.
//
// "Changed nothing" is checked against a database of this file's own (created here, migrated like
// production, so the other test files writing beside us cannot blur it): a request is cheap to check when
// no transaction ID was used during it (PostgreSQL assigns one only to writing transactions); otherwise
// the content of every table is compared with the state before it. Abuse-limit counters (rate_limits) are
// the one write a refused request is meant to make.
//
// FUZZ_RUNS (default 3000) sets the number of generated requests; FUZZ_SEED replays a failure (fast-check
// prints the seed and the shrunk request).
import { changedTables, tableDigests } from "@/test/db-changes";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, pool } from "@/lib/db";
import { applyMigrations } from "@/lib/db/migrations";
import { migrateJobQueue } from "@/lib/db/job-queue";
import { MAX_BODY_BYTES } from "@/lib/http/request";
import { call } from "@/test/http";

const APP = path.resolve(import.meta.dirname, "../../app");
const FAMILIES = ["api", "engine", "counts", "oauth", "users", "uploads", "project_preferences", "unsubscribe"];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261125;

function routeFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : []));
}
/** Route templates such as /api/projects/[id]/links/[link]. */
const TEMPLATES = FAMILIES.flatMap((f) => routeFiles(path.join(APP, f))).map(
  (f) => `/${path.relative(APP, path.dirname(f)).split(path.sep).join("/")}`,
);

// ---- the fixture: one of each record, owned by `owner` -------------------------------------------------

interface Fixture {
  ids: number[];
  projectId: number;
  workflowId: number;
  subjectId: number;
  /** A classification create body for the fixture's workflow (the subject's version and links). */
  classification: Record<string, unknown>;
  tokens: { owner: string; volunteer: string; admin: string };
  keys: string[];
}
let fixture: Fixture;
/** The methods each route takes, from the Allow header of its 405 to a method no route here takes. */
const ALLOWED = new Map<string, string[]>();
let baseline: Map<string, string> | null = null;

async function createPrivateDatabase(): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!);
  const name = `fuzz_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  url.pathname = `/${name}`;
  return url.toString();
}

async function buildFixture(): Promise<Fixture> {
  const { signedInUser, createWorkflow, createSubjectSet, createProject, classificationBody } = await import("@/test/factories");
  const { createCollection } = await import("@/test/factories-collections");
  const { createOrganization, createProjectPage } = await import("@/test/factories-organizations");
  const { createFieldGuide, createTutorial } = await import("@/test/factories-project-content");
  const { createGroupOwnedBy } = await import("@/test/factories-collections");
  const owner = await signedInUser();
  const volunteer = await signedInUser();
  const admin = await signedInUser({ admin: true });
  const project = await createProject(owner.user.id, { live: true });
  const hidden = await createProject(owner.user.id, { private: true });
  const workflow = await createWorkflow(project.id);
  const { set, subjects } = await createSubjectSet(project.id, 3, { workflowIds: [workflow.id] });
  const classified = await call("POST", "/api/classifications", {
    token: volunteer.token,
    body: classificationBody(workflow, [subjects[0].id]),
  });
  expect(classified.status).toBe(201);
  const incomplete = await call("POST", "/api/classifications", {
    token: volunteer.token,
    body: classificationBody(workflow, [subjects[1].id], { completed: false }),
  });
  expect(incomplete.status).toBe(201);
  const engine = await call("POST", "/engine/workflows", {
    token: owner.token,
    accept: "application/json",
    body: {
      workflow: {
        id: workflow.id,
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { c: { type: "consensus" } },
        rules_config: [{ if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject" }] }],
      },
    },
  });
  expect(engine.status, engine.text).toBe(201);
  const collection = await createCollection({ userId: owner.user.id }, { subjectIds: [subjects[0].id], projectIds: [project.id] });
  const organization = await createOrganization(owner.user.id);
  const page = await createProjectPage(project.id);
  const guide = await createFieldGuide(project.id);
  const tutorial = await createTutorial(project.id, { workflowIds: [workflow.id] });
  const group = await createGroupOwnedBy(owner.user.id);
  const ids = [
    owner.user.id,
    volunteer.user.id,
    project.id,
    hidden.id,
    workflow.id,
    set.id,
    ...subjects.map((s) => s.id),
    Number(classified.body.classifications[0].id),
    Number(incomplete.body.classifications[0].id),
    collection.id,
    organization.id,
    page.id,
    guide.id,
    tutorial.id,
    (group as { id: number }).id,
  ];
  return {
    ids: [...new Set(ids)],
    projectId: project.id,
    workflowId: workflow.id,
    subjectId: subjects[0].id,
    classification: classificationBody(workflow, [subjects[2].id]),
    tokens: { owner: owner.token, volunteer: volunteer.token, admin: admin.token },
    keys: ["q", "c", "T0"],
  };
}

// ---- change detection ----------------------------------------------------------------------------------

async function nextXid(): Promise<string> {
  return (await pool().query<{ x: string }>(`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x`)).rows[0].x;
}

// ---- generators ----------------------------------------------------------------------------------------

/** Names Object.prototype has: looked up in a plain object, each finds something that is not the caller's. */
const PROTO_NAMES = [
  "constructor",
  "__proto__",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "prototype",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
];
/** Numbers at and past the edges of int4, uint32, 2^53 and int8, negative, fractional, and as exponents. */
const NUMBER_TEXTS = [
  "0",
  "-1",
  "2147483647",
  "2147483648",
  "-2147483648",
  "-2147483649",
  "4294967296",
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551616",
  "99999999999999999999",
  "-99999999999999999999",
  "1".repeat(400),
  "1e309",
  "-1e309",
  "1e20",
  "1E3",
  "2e9",
  "1e-7",
  "0.5",
  "-0",
  "1.0",
  "0x7fffffff",
  "00000000000000000001",
  "１２",
  "1_000",
  "Infinity",
  "NaN",
];
/** What LIKE and regular expressions treat specially, and what PostgreSQL cannot store. */
const LIKE_TEXTS = [
  "%",
  "_",
  "\\",
  "\u0000",
  "a%",
  "%a%",
  "a_b",
  "a\\",
  "\\%",
  "\\_",
  "%\\",
  "\\\\",
  "a\u0000",
  "\u0000%",
  "[a-z]",
  ".*",
  "(",
  "*",
];
const HOSTILE = [
  "",
  " ",
  "0",
  "-1",
  "1.5",
  "1e308",
  "-0",
  "NaN",
  "Infinity",
  "2147483648",
  "99999999999999999999999",
  "0x10",
  "abc",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  "%",
  "%00",
  "\u0000",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "😀",
  "ü",
  "1,2,3",
  ",,,",
  "1,,x",
  "1,-2",
  "-created_at",
  "created_at,-id",
  "$where",
  "a".repeat(5000),
  "1".repeat(400),
  " 1",
  "1 ",
  "+1",
  "01",
  ...PROTO_NAMES,
  ...PROTO_NAMES.map((n) => `-${n}`),
  "id,constructor",
  "__proto__,id",
  "constructor.prototype",
  "__proto__[x]",
  ...NUMBER_TEXTS,
  ...LIKE_TEXTS,
];
const protoName = fc.constantFrom(...PROTO_NAMES);
const numberText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NUMBER_TEXTS) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.constantFrom(...NUMBER_TEXTS), fc.integer().map(String))
      .chain((a) => fc.constantFrom(a, `${a},1`, `1,${a}`, `${a},${a}`)),
  },
);
const likeText = fc.oneof(
  fc.constantFrom(...LIKE_TEXTS),
  fc.string({ unit: fc.constantFrom("%", "_", "\\", "\u0000", "a", "é", "'", "*", "."), maxLength: 8 }),
);
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: protoName },
  { weight: 1, arbitrary: numberText },
  { weight: 1, arbitrary: likeText },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);

/** Query parameters that take numbers (ids, paging, expiry) somewhere. */
const NUMERIC_KEYS = [
  "page",
  "page_size",
  "id",
  "project_id",
  "workflow_id",
  "subject_set_id",
  "subject_id",
  "user_id",
  "last_id",
  "before_id",
  "translated_id",
  "user_group_id",
  "collection_id",
  "organization_id",
  "project_ids",
  "workflow_ids",
  "subject_ids",
  "expires",
  "last",
  "classification_id",
];
/** Query parameters that filter by text somewhere (exact, prefix or LIKE matches). */
const STRING_KEYS = [
  "search",
  "display_name",
  "slug",
  "owner",
  "login",
  "email",
  "language",
  "state",
  "tags",
  "name",
  "title",
  "url_key",
  "kind",
  "status",
  "reducer_key",
  "extractor_key",
  "content_type",
  "translated_type",
  "subgroup",
  "type",
  "period",
  "start_date",
  "end_date",
  "sort",
  "include",
  "fields",
];
const QUERY_KEYS = [
  "page",
  "page_size",
  "sort",
  "include",
  "id",
  "project_id",
  "workflow_id",
  "subject_set_id",
  "subject_id",
  "user_id",
  "search",
  "display_name",
  "slug",
  "owner",
  "language",
  "period",
  "login",
  "email",
  "state",
  "last_id",
  "fields",
  "http_cache",
  "admin",
  "cards",
  "reducer_key",
  "extractor_key",
  "translated_type",
  "translated_id",
  "response_type",
  "client_id",
  "redirect_uri",
  "expires",
  "signature",
  "content_type",
  "token",
  "user_group_id",
  "collection_id",
  "kind",
  "status",
  "tags",
  "featured",
  "live",
  "private",
];
const FIELDS = [
  "display_name",
  "description",
  "private",
  "live",
  "tasks",
  "first_task",
  "retirement",
  "annotations",
  "metadata",
  "completed",
  "links",
  "locations",
  "login",
  "email",
  "password",
  "name",
  "roles",
  "state",
  "join_token",
  "settings",
  "preferences",
  "items",
  "steps",
  "content",
  "title",
  "url_key",
  "language",
  "strings",
  "configuration",
  "active",
  "grant_type",
  "client_id",
  "gold_standard",
  "subjects",
  "project",
  "workflow",
  "user",
  "user_group",
  "subject_set",
  "extractors_config",
  "reducers_config",
  "rules_config",
  "listed",
  "primary_language",
  "tags",
  "urls",
  "external_id",
  "media",
  "content_type",
];
const RESOURCE_KEYS = [
  "projects",
  "workflows",
  "subjects",
  "subject_sets",
  "classifications",
  "collections",
  "organizations",
  "user_groups",
  "memberships",
  "project_roles",
  "project_preferences",
  "collection_roles",
  "collection_preferences",
  "organization_roles",
  "field_guides",
  "tutorials",
  "aggregations",
  "translations",
  "project_pages",
  "organization_pages",
  "users",
  "user",
  "workflow",
  "set_member_subjects",
  "media",
  "extractor",
  "reducer",
  "subject_rule",
  "subject_rule_effect",
  "admin",
];

// A JSON number written as text (past 2^53, 1e309): JSON.stringify cannot write these, so a marker string
// stands for it and `toJson` puts the literal in its place.
const RAW = "\u0001raw:";
const rawNumber = fc
  .constantFrom(
    ...NUMBER_TEXTS.filter((n) => /^-?\d+(\.\d+)?([eE]-?\d+)?$/.test(n) && !/^-?0\d/.test(n)),
    "1e400",
    "-1e400",
    "123456789012345678901234567890",
  )
  .map((n) => `${RAW}${n}\u0001`);
function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([^"\\]*)\\u0001"/g, "$1");
}
const jsonKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FIELDS) },
  { weight: 1, arbitrary: protoName },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 32,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 2,
      1e308,
      -1e308,
      5e-324,
      "",
      "1",
      "x",
    ),
    rawNumber,
    hostileString,
    fc.array(tie("v"), { maxLength: 4 }),
    // (a computed key makes `__proto__` an own key, as JSON.parse does)
    fc.array(fc.tuple(jsonKey, tie("v")), { maxLength: 5 }).map((entries) => Object.fromEntries(entries)),
  ),
})).v;

/**
 * JSON nested from just past the limit up to what the body limit holds, as arrays or objects, placed where
 * a stored JSON field would carry it. Most are near the limit (cheap); some reach the 5 MiB body limit.
 */
const deepJson = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 500, max: 4000 }) },
      { weight: 3, arbitrary: fc.integer({ min: 4000, max: 100_000 }) },
      { weight: 1, arbitrary: fc.constant(Math.floor((MAX_BODY_BYTES - 2000) / 6)) },
    ),
    fc.boolean(),
  )
  .map(([depth, objects]) => (objects ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}${"]".repeat(depth)}`));

/**
 * An engine configuration (saved, or tried in a dry run with pasted classifications) whose keys, task keys,
 * lookups and the volunteers' answers are names Object.prototype has: these run through the extractors,
 * reducers and rules in the web process.
 */
function engineBody(workflowId: number) {
  const key = fc.oneof(protoName, fc.constantFrom("q", "c", "T0"));
  return fc
    .record({
      ek: key,
      rk: key,
      task: key,
      extractor: fc.constantFrom("question", "survey", "blank", "pluck_field"),
      reducer: fc.constantFrom("consensus", "stats", "count", "unique_count", "first_extract"),
      field: fc.oneof(protoName, fc.constantFrom("most_likely", "num_votes", "0")),
      answers: fc.array(fc.oneof(protoName, hostileString, fc.integer({ min: -1, max: 3 })), { minLength: 1, maxLength: 3 }),
      subjectKey: fc.oneof(protoName, fc.constant("x")),
      dryRun: fc.boolean(),
    })
    .map((r) => {
      const extractor =
        r.extractor === "pluck_field"
          ? { type: r.extractor, field_map: { [r.field]: `$.annotations.${r.task}[0].value` } }
          : { type: r.extractor, task_key: r.task };
      const reducer =
        r.reducer === "unique_count"
          ? { type: r.reducer, field: `${r.ek}.${r.field}` }
          : { type: r.reducer, filters: { extractor_keys: [r.ek] } };
      const workflow = {
        extractors_config: { [r.ek]: extractor },
        reducers_config: { [r.rk]: reducer },
        rules_config: [
          { if: ["gte", ["lookup", `${r.rk}.${r.field}`, 0], ["const", 1]], then: [{ action: "retire_subject", reason: "consensus" }] },
        ],
      };
      if (!r.dryRun) return toJson({ workflow: { id: workflowId, ...workflow } });
      const value = r.extractor === "survey" ? r.answers.map((choice) => ({ choice })) : r.answers;
      const classifications = [1, 2, 3].map((id) => ({
        id,
        subject_id: 1,
        user_id: id,
        annotations: [{ task: r.task, value }],
        metadata: { [r.field]: 1 },
        subject: { metadata: { [r.subjectKey]: "1" } },
      }));
      return toJson({ workflow, classifications });
    });
}

/** A copy of `body` with the value at `path` (dotted; digits index arrays) replaced. */
function withValueAt(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const parts = path.split(".");
  let node: Record<string, unknown> = copy;
  for (const p of parts.slice(0, -1)) node = node[p] as Record<string, unknown>;
  node[parts[parts.length - 1]] = value;
  return copy;
}

/** What goes where a string, a number or an id belongs: objects with their own toString/valueOf, prototype names, numbers out of range. */
const poison = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>({ toString: "x", valueOf: "y" }, { toString: {}, valueOf: 1 }, { toString: "x" }, { valueOf: [] }),
  },
  fc.constantFrom<unknown>({ hasOwnProperty: "x" }, { constructor: { prototype: "x" } }, ["x"], [], {}, null, true),
  fc.tuple(protoName, jsonValue).map(([k, v]) => ({ [k]: v })),
  protoName,
  rawNumber,
  likeText,
  fc.constantFrom<unknown>(2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER + 2, 1e308, -1, 0, 0.5),
);

/** Valid writes, each with one value replaced by poison: the classification create, the engine's ingest, reductions and configuration. */
function poisonedWrites(f: Fixture) {
  const inbound = {
    id: 900_001,
    workflow_id: f.workflowId,
    subject_id: f.subjectId,
    user_id: null,
    annotations: [{ task: "T0", value: 0 }],
    metadata: { workflow_version: "1.1" },
  };
  const writes: [string, string, unknown, string[]][] = [
    [
      "/api/classifications",
      "POST",
      f.classification,
      [
        "classifications.metadata.workflow_version",
        "classifications.metadata.started_at",
        "classifications.metadata.finished_at",
        "classifications.metadata.user_language",
        "classifications.annotations.0.task",
        "classifications.annotations.0.value",
        "classifications.links.workflow",
        "classifications.links.project",
        "classifications.links.subjects.0",
        "classifications.links.subjects",
        "classifications.links.user_group",
        "classifications.completed",
        "classifications.gold_standard",
      ],
    ],
    [
      "/engine/classifications",
      "POST",
      inbound,
      [
        "id",
        "workflow_id",
        "subject_id",
        "user_id",
        "project_id",
        "workflow_version",
        "metadata.workflow_version",
        "annotations.0.task",
        "annotations",
        "created_at",
        "subject",
      ],
    ],
    [
      "/engine/workflows/[id]/reducers/c/reductions",
      "POST",
      { subject_id: f.subjectId, data: { n: 1 }, subgroup: "s" },
      ["subject_id", "user_id", "subgroup", "data"],
    ],
    [
      "/engine/workflows/[id]",
      "PUT",
      { workflow: { id: f.workflowId, status: "active", rules_applied: "all_matching_rules", public_extracts: false } },
      [
        "workflow.id",
        "workflow.status",
        "workflow.rules_applied",
        "workflow.public_extracts",
        "workflow.extractors_config",
        "workflow.rules_config",
      ],
    ],
    [
      "/engine/workflows/[id]/dry_run",
      "POST",
      { workflow: {}, classifications: [{ ...inbound, id: 1 }] },
      [
        "classifications.0.id",
        "classifications.0.subject_id",
        "classifications.0.metadata.workflow_version",
        "classifications.0.annotations.0.task",
        "classifications.0.created_at",
        "last",
      ],
    ],
  ];
  return fc
    .constantFrom(...writes)
    .chain(([template, method, body, paths]) =>
      fc.tuple(fc.constantFrom(...paths), poison).map(([at, value]) => ({ template, method, body: toJson(withValueAt(body, at, value)) })),
    );
}

/** Writes whose body is otherwise valid, with deep JSON in a field that is stored (or sent on) as it is. */
function deepTargets(f: Fixture): [string, string, (deep: string) => string][] {
  return [
    ["/api/projects/[id]", "PUT", (d) => `{"projects":{"configuration":${d}}}`],
    ["/api/workflows/[id]", "PUT", (d) => `{"workflows":{"configuration":${d}}}`],
    [
      "/api/subjects",
      "POST",
      (d) => `{"subjects":{"metadata":${d},"locations":[{"image/png":"https://example.org/a.png"}],"links":{"project":"${f.projectId}"}}}`,
    ],
    ["/api/translations?translated_type=project&translated_id=[id]", "POST", (d) => `{"translations":{"language":"fr","strings":${d}}}`],
    [
      "/engine/classifications",
      "POST",
      (d) => `{"id":1,"workflow_id":${f.workflowId},"subject_id":${f.subjectId},"annotations":[{"task":"T0","value":${d}}],"metadata":{}}`,
    ],
    [
      "/engine/workflows/[id]/dry_run",
      "POST",
      (d) => `{"workflow":{},"classifications":[{"id":1,"subject_id":${f.subjectId},"annotations":[],"metadata":${d}}]}`,
    ],
    [
      "/users",
      "POST",
      (d) => `{"user":{"login":"deep","email":"deep@example.org","password":"12345678","display_name":"x","project_id":${d}}}`,
    ],
  ];
}

function makeRequestArb(f: Fixture) {
  const id = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...f.ids.map(String)) },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: numberText },
    { weight: 1, arbitrary: protoName },
  );
  const segment = (name: string): fc.Arbitrary<string | string[]> => {
    // (an empty last segment is the parent path, which Next redirects: not a request for the catch-all)
    if (name.startsWith("..."))
      return fc
        .array(fc.oneof(hostileString, fc.constantFrom("projects", "subjects", "1", "workflows")), { minLength: 1, maxLength: 4 })
        .map((a) => a.map((x) => x || "x"));
    if (name === "link")
      return fc.oneof(
        fc.constantFrom("subject_sets", "workflows", "subjects", "projects", "users", "default_subject", "retired_subjects"),
        hostileString,
      );
    if (name === "key") return fc.oneof(fc.constantFrom(...f.keys), protoName, hostileString);
    if (name === "ids")
      return fc.oneof(
        id,
        fc.array(fc.constantFrom(...f.ids.map(String)), { minLength: 1, maxLength: 4 }).map((a) => a.join(",")),
      );
    return id;
  };
  const pathArb = fc.constantFrom(...TEMPLATES).chain((template) => {
    const parts = template.split("/").slice(1);
    return fc.tuple(...parts.map((p) => (/^\[(.+)\]$/.test(p) ? segment(/^\[(.+)\]$/.exec(p)![1]) : fc.constant(p)))).map((values) => ({
      template,
      path: `/${values.map((v) => (Array.isArray(v) ? v.map(encodeSegment).join("/") : encodeSegment(v))).join("/")}`,
    }));
  });
  // One parameter of a class that was a 500, alone: a list refuses the first bad parameter it meets, so a
  // bad number or name reaches the database only in a request that is otherwise clean.
  const focused = fc.oneof(
    fc.tuple(fc.constantFrom(...NUMERIC_KEYS), numberText),
    fc.tuple(fc.constantFrom("page", "page_size"), numberText),
    fc.tuple(fc.constantFrom(...STRING_KEYS), fc.oneof(likeText, protoName)),
    fc.tuple(
      fc.constantFrom("sort", "include", "fields"),
      fc.oneof(
        protoName,
        protoName.map((n) => `-${n}`),
        protoName.map((n) => `id,${n}`),
      ),
    ),
    fc.tuple(
      fc.oneof(
        protoName,
        protoName.map((n) => `${n}[x]`),
      ),
      fc.oneof(id, hostileString),
    ),
  );
  const query = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.array(
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc.tuple(
              fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: hostileString }),
              fc.oneof(id, hostileString),
            ),
          },
          { weight: 3, arbitrary: focused },
        ),
        { maxLength: 4 },
      ),
    },
    { weight: 2, arbitrary: focused.map((pair) => [pair]) },
  );
  const rawBody = fc.oneof(
    fc.json({ maxDepth: 3 }),
    fc.json({ maxDepth: 3 }).map((s) => s.slice(0, Math.max(0, s.length - 1))),
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      "{",
      "[]",
      "null",
      "1",
      '"x"',
      "{}",
      '{"a":}',
      "[".repeat(5000),
      '{"a":'.repeat(2000),
      "\u0000",
      "grant_type=password&client_id=x&login=a&password=b",
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
    ),
    fc
      .tuple(protoName, likeText, numberText)
      .map(
        ([k, v, n]) =>
          `grant_type=${encodeURIComponent(k)}&${encodeURIComponent(k)}=${encodeURIComponent(v)}` +
          `&login=${encodeURIComponent(v)}&password=${n}&client_id=${encodeURIComponent(k)}`,
      ),
    deepJson,
  );
  const recordArb = fc.array(fc.tuple(jsonKey, jsonValue), { maxLength: 6 }).map((entries) => Object.fromEntries(entries));
  const envelope = fc
    .tuple(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...RESOURCE_KEYS) }, { weight: 1, arbitrary: protoName }),
      fc.oneof({ weight: 4, arbitrary: recordArb }, { weight: 1, arbitrary: jsonValue }),
      fc.dictionary(fc.constantFrom(...FIELDS), jsonValue, { maxKeys: 2 }),
    )
    .map(([key, value, extra]) => toJson({ [key]: value, ...extra }));
  // A valid-looking envelope with JSON nested past the limit in one of its fields.
  const deepEnvelope = fc
    .tuple(fc.constantFrom(...RESOURCE_KEYS), fc.constantFrom(...FIELDS), deepJson)
    .map(([key, field, deep]) => `{"${key}":{"${field}":${deep}}}`);
  const body = fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: rawBody },
    { weight: 5, arbitrary: envelope },
    { weight: 1, arbitrary: deepEnvelope },
    { weight: 1, arbitrary: engineBody(f.workflowId) },
  );
  const auth = fc.oneof(
    { weight: 4, arbitrary: fc.constant(`Bearer ${f.tokens.owner}`) },
    { weight: 3, arbitrary: fc.constantFrom<string | undefined>(undefined, `Bearer ${f.tokens.volunteer}`, `Bearer ${f.tokens.admin}`) },
    { weight: 1, arbitrary: fc.constantFrom("Bearer garbage", "Bearer ", "Basic YTpi", `bearer ${f.tokens.volunteer.slice(0, -3)}xyz`) },
  );
  const weighted = <T>(usual: T, others: T[]) =>
    fc.oneof({ weight: 6, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
  const required = fc.record({
    accept: weighted("application/vnd.api+json; version=1", [
      "application/json",
      "*/*",
      "text/html",
      "application/vnd.api+json; version=9",
      "",
    ]),
    "content-type": weighted("application/json", [
      "application/vnd.api+json",
      "text/csv",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/plain",
      "application/json; charset=latin1",
      "",
    ]),
  });
  const optional = fc.record(
    {
      "if-match": fc.oneof(fc.constantFrom("*", '"abc"', 'W/"1"', '""'), headerValue),
      "if-none-match": fc.constantFrom("*", '"abc"', 'W/"1"'),
      "idempotency-key": headerValue,
      cookie: fc.constantFrom(
        undefined,
        undefined,
        undefined,
        "quorum_session=garbage",
        "authjs.session-token=garbage",
        "__Secure-authjs.session-token=x.y.z",
      ),
      origin: fc.constantFrom("https://evil.example", "null", "http://quorum.test"),
      "x-forwarded-for": fc.constantFrom("203.0.113.7", "garbage", "::1, 10.0.0.1"),
      "x-csrf-token": headerValue,
      range: fc.constantFrom("bytes=0-1", "bytes=9999999999-", "bytes=x"),
    },
    { requiredKeys: [] },
  );
  const headers = fc
    .tuple(required, optional)
    .map(([a, b]) => ({ ...a, ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) }) as Record<string, string>);
  // Mostly a method the route takes (Allow of its 405), sometimes any.
  const method = (template: string) =>
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ALLOWED.get(template)!) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
  const generic = fc
    .record({ target: pathArb, query, headers, auth, body })
    .chain((r) => method(r.target.template).map((m) => ({ ...r, method: m })));
  // Bodies that only reach their work on one route, sent there by the owner: engine configurations and dry
  // runs, and JSON nested past the limit in a stored field of a record being written.
  const at = (template: string, method: string) => ({
    template,
    path: template.replace(/\[\w+\]/g, String(template.includes("workflow") ? f.workflowId : f.projectId)),
    method,
  });
  const owner = fc.constant(`Bearer ${f.tokens.owner}`);
  const plainJson = fc.constant({ accept: "application/json", "content-type": "application/json", "if-match": "*" } as Record<
    string,
    string
  >);
  const targeted = fc
    .oneof(
      {
        weight: 1,
        arbitrary: fc.record({
          target: fc.constantFrom(
            at("/engine/workflows/[id]/dry_run", "POST"),
            at("/engine/workflows/[id]", "PUT"),
            at("/engine/workflows", "POST"),
          ),
          query: fc.constant([] as [string, string][]),
          headers: plainJson,
          auth: owner,
          body: engineBody(f.workflowId),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...deepTargets(f)), deepJson).map(([[template, method, body], deep]) => ({
          target: at(template, method),
          query: [] as [string, string][],
          headers: { accept: "application/vnd.api+json; version=1", "content-type": "application/json", "if-match": "*" } as Record<
            string,
            string
          >,
          auth: `Bearer ${f.tokens.owner}`,
          body: body(deep),
        })),
      },
      {
        weight: 4,
        arbitrary: poisonedWrites(f).map(({ template, method, body }) => ({
          target: at(template, method),
          query: [] as [string, string][],
          headers: {
            accept: template.startsWith("/api") ? "application/vnd.api+json; version=1" : "application/json",
            "content-type": "application/json",
            "if-match": "*",
          } as Record<string, string>,
          auth: `Bearer ${f.tokens.owner}`,
          body,
        })),
      },
    )
    .map((r) => ({ ...r, method: r.target.method }));
  return fc.oneof({ weight: 10, arbitrary: generic }, { weight: 3, arbitrary: targeted });
}

function encodeSegment(s: string): string {
  if (s === "." || s === "..") return "x"; // dot segments are resolved by every client before sending
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "?")); // a lone surrogate cannot be sent
  }
}

// ---- the suite -----------------------------------------------------------------------------------------

describe("hostile input", () => {
  beforeAll(async () => {
    const url = await createPrivateDatabase();
    await closeDb();
    await applyMigrations(url);
    await migrateJobQueue(url);
    process.env.DATABASE_URL = url;
    const { ensureBootstrapRecords } = await import("@/lib/domain/ensure-bootstrap-records");
    await ensureBootstrapRecords();
    fixture = await buildFixture();
    for (const template of TEMPLATES) {
      const probe = template.replace(/\[\.\.\.\w+\]/g, "x").replace(/\[\w+\]/g, String(fixture.projectId));
      const res = await call("PATCH", probe, { raw: "{}" });
      const allow = res.status === 405 ? (res.headers.get("allow") ?? "").split(/,\s*/).filter(Boolean) : [...METHODS];
      ALLOWED.set(template, allow.length ? allow : [...METHODS]);
    }
  }, 120_000);

  afterAll(async () => {
    await closeDb();
  });

  it("covers every route of the families", () => {
    expect(TEMPLATES.length).toBeGreaterThan(120);
    for (const f of [
      "/api/projects",
      "/engine/workflows/[id]",
      "/counts/classifications",
      "/oauth/token",
      "/users/sign_in",
      "/uploads/[...key]",
    ])
      expect(TEMPLATES).toContain(f);
  });

  it("the change detector sees a write (so the property below can fail)", async () => {
    const before = await nextXid();
    const reference = await tableDigests();
    await pool().query(`UPDATE projects SET description = description || ' ' WHERE id = $1`, [fixture.projectId]);
    expect(await nextXid()).not.toBe(before);
    expect(changedTables(reference, await tableDigests())).toEqual(["public.projects"]);
    await pool().query(`UPDATE projects SET description = rtrim(description) WHERE id = $1`, [fixture.projectId]);
    expect(changedTables(reference, await tableDigests())).toEqual([]);
  });

  it("no request is a 5xx; a refused one answers a JSON error with a message and changes nothing", async () => {
    const seen = { requests: 0, refused: 0, accepted: 0, contentChecks: 0, statuses: new Map<number, number>() };
    const refusedWithoutMessage: string[] = [];
    await fc.assert(
      fc
        .asyncProperty(makeRequestArb(fixture), async (r) => {
          // The fixture's users stay: disabling one would turn every later request of its token into a 401.
          fc.pre(
            !(
              r.method === "DELETE" &&
              r.target.template === "/api/users/[id]" &&
              Object.values(fixture.tokens).some((t) => r.auth?.endsWith(t))
            ),
          );
          // Its public project stays too (the tests after this one write to it); the private one may go.
          fc.pre(
            !(
              r.method === "DELETE" &&
              r.target.template === "/api/projects/[id]" &&
              r.target.path === `/api/projects/${fixture.projectId}`
            ),
          );
          const qs = new URLSearchParams(r.query).toString();
          const url = `${r.target.path}${qs ? `?${qs}` : ""}`;
          const headers: Record<string, string> = { ...r.headers };
          if (r.auth) headers.authorization = r.auth;
          const hasBody = r.body !== undefined && r.method !== "GET" && r.method !== "OPTIONS";
          const before = await nextXid();
          const res = await call(r.method, url, {
            accept: headers.accept,
            contentType: hasBody ? headers["content-type"] : null,
            headers,
            raw: hasBody ? r.body : undefined,
          });
          seen.requests++;
          seen.statuses.set(res.status, (seen.statuses.get(res.status) ?? 0) + 1);
          const what = `${r.method} ${url} -> ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          expect(res.status, what).toBeGreaterThanOrEqual(200);
          if (res.status < 400) {
            seen.accepted++;
            if (r.method !== "GET" && r.method !== "OPTIONS" && process.env.FUZZ_DEBUG) {
              for (const [who, t] of Object.entries(fixture.tokens))
                if ((await call("GET", "/api/me", { token: t })).status !== 200) console.info(`[fuzz] ${who} token lost after ${what}`);
            }
            baseline = null; // an accepted request may change things: the next check starts from here
            return;
          }
          seen.refused++;
          const message = (res.body as { errors?: { message?: unknown }[] } | null)?.errors?.[0]?.message;
          if (typeof message !== "string" || !message.trim()) refusedWithoutMessage.push(what);
          expect(typeof message === "string" && message.trim().length > 0, `a JSON error with a message: ${what}`).toBe(true);
          if ((await nextXid()) !== before) {
            seen.contentChecks++;
            const after = await tableDigests();
            const reference = baseline;
            baseline = after;
            if (reference) expect(changedTables(reference, after), `a refused request changed the database: ${what}`).toEqual([]);
          }
        })
        .beforeEach(async () => {
          baseline ??= await tableDigests();
        }),
      { numRuns: RUNS, seed: SEED, endOnFailure: false, verbose: 1 },
    );
    console.info(
      `[fuzz] ${seen.requests} requests: ${seen.refused} refused, ${seen.accepted} accepted, ${seen.contentChecks} content checks; ` +
        `statuses ${JSON.stringify(Object.fromEntries(seen.statuses))}`,
    );
    expect(refusedWithoutMessage).toEqual([]);
    expect(seen.refused).toBeGreaterThan(RUNS / 2);
  }, 600_000);

  it.each([
    ["POST", "/api/projects", "application/json"],
    ["PUT", "/api/projects/{project}", "application/json"],
    ["POST", "/oauth/token", "application/x-www-form-urlencoded"],
    ["POST", "/oauth/token", "multipart/form-data; boundary=x"],
    ["POST", "/users", "application/json"],
    ["POST", "/api/translations?translated_type=project&translated_id={project}", "application/json"],
    ["POST", "/api/projects/{project}/classifications_export", "application/json"],
    ["POST", "/engine/classifications", "application/json"],
  ])("%s %s: a body over the limit is refused with 413 before it is read (%s)", async (method, template, contentType) => {
    const url = template.replace("{project}", String(fixture.projectId));
    const limit = url.startsWith("/engine/classifications") ? 4 * MAX_BODY_BYTES : MAX_BODY_BYTES;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const total = limit * 3;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= total) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    // Streamed without Content-Length: refused once the limit is passed, the rest never read.
    const streamed = await call(method, url, { token: fixture.tokens.owner, contentType, raw: stream, headers: { "if-match": "*" } });
    expect(streamed.status, streamed.text).toBe(413);
    expect(streamed.body.errors[0].message).toMatch(/too large/);
    expect(pulled).toBeLessThan(limit + 4 * chunk.byteLength);
    // Announced by Content-Length: refused before a byte is read.
    let pulledAnnounced = 0;
    const announced = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulledAnnounced += chunk.byteLength;
        controller.enqueue(chunk);
        if (pulledAnnounced > total) controller.close();
      },
    });
    const res = await call(method, url, {
      token: fixture.tokens.owner,
      contentType,
      raw: announced,
      headers: { "content-length": String(total), "if-match": "*" },
    });
    expect(res.status).toBe(413);
    expect(pulledAnnounced).toBeLessThanOrEqual(2 * chunk.byteLength); // at most what the stream pre-fetches
  });
});
