import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import {
  ACTORS,
  type ActorName,
  authorizationMatrix,
  castProject,
  createCast,
  type Cast,
  type MatrixRow,
  type MatrixWorld,
  only,
  EDITORS,
  statuses,
} from "@/test/authorization-matrix";
import { engine } from "@/test/engine";
import { classificationBody, createSubjectSet, createWorkflow, uid } from "@/test/factories";
import { api } from "@/test/http";

// The decision engine's authorization matrix: every /engine endpoint and method (the list is checked
// against the route files below), sent by every actor about a workflow of a private project. The engine is
// for the project's editors (owners, collaborators) and admins: anonymous callers get 401, those who cannot
// see the project 404, project roles that may not edit it 403; each refused write is read back unchanged.
// What an editor may name inside a request (ids of other projects) is lib/engine/http/engine-boundary.int.test.ts.

// The editors' imports name a host that does not exist here: their jobs are left out of later files' drains,
// which would otherwise retry each one ten times, every try a name lookup that can hold a thread of the
// process's resolver for seconds (and with it any other lookup, such as another test's localhost call).
afterAll(async () => {
  await pool().query(
    `DELETE FROM graphile_worker._private_jobs WHERE key IN (
       SELECT 'engine_extracts_import:' || id FROM background_jobs WHERE kind = 'engine_extracts_import' AND params->>'url' LIKE 'https://files.example.org/%')`,
  );
});

interface World extends MatrixWorld {
  projectId: number;
  workflowId: number;
  subjectId: number;
  classificationId: number;
}

const W = "/engine/workflows";
/** An engine endpoint on a private project: 401 anonymous, 404 stranger, 403 read-only roles, `ok` for editors. */
const editors = (ok: number) => only(EDITORS, ok, 403, { anonymous: 401, stranger: 404 });
const owner = (w: World) => w.cast.token("owner")!;

/** One row of the workflow's configuration, read back (a refused write must leave it as it was). */
const keyedRow = async (w: World, kind: "extractors" | "reducers", key: string) =>
  (await pool().query(`SELECT key, config FROM engine_${kind.slice(0, -1)}s WHERE workflow_id = $1 AND key = $2`, [w.workflowId, key]))
    .rows;
const ruleRow = async (id: number) =>
  (
    await pool().query(
      `SELECT condition, (SELECT json_agg(config ORDER BY position) FROM engine_rule_effects e WHERE e.rule_id = r.id) AS effects
       FROM engine_rules r WHERE id = $1`,
      [id],
    )
  ).rows;
const q = async (sql: string, ...values: unknown[]) => (await pool().query(sql, values)).rows;
/** A number per actor, for ids and markers only that actor's request writes (the actors run concurrently). */
const actorNumber = (actor: ActorName) => ACTORS.indexOf(actor);

/** A fresh keyed resource (extractor or reducer) made by the owner, for one actor's PUT or DELETE. */
async function freshKeyed(w: World, kind: "extractors" | "reducers", actor: ActorName) {
  const key = `${kind[0]}_${actor}_${uid()}`;
  const body = kind === "extractors" ? { extractor: { key, type: "blank", task_key: "T0" } } : { reducer: { key, type: "count" } };
  const res = await engine.post(`/workflows/${w.workflowId}/${kind}`, body, owner(w));
  expect(res.status).toBe(201);
  return key;
}

/** A fresh rule (with one effect) made by the owner. */
async function freshRule(w: World, topic: "subject" | "user") {
  const rule = await engine.post(
    `/workflows/${w.workflowId}/${topic}_rules`,
    { [`${topic}_rule`]: { condition: ["const", false] } },
    owner(w),
  );
  expect(rule.status).toBe(201);
  const effect = await engine.post(
    `/workflows/${w.workflowId}/${topic}_rules/${rule.body.id}/${topic}_rule_effects`,
    {
      [`${topic}_rule_effect`]:
        topic === "subject"
          ? { action: "retire_subject", config: {} }
          : { action: "promote_user", config: { workflow_id: String(w.workflowId) } },
    },
    owner(w),
  );
  expect(effect.status).toBe(201);
  return { rule: rule.body.id as number, effect: effect.body.id as number };
}

type Row = MatrixRow<World, any> & { route: string };

const rows: Row[] = [
  {
    route: "/engine/workflows",
    name: "/engine/workflows (a new workflow's configuration)",
    method: "POST",
    expect: editors(201),
    fresh: async (w) => (await createWorkflow(w.projectId)).id,
    path: () => W,
    body: (_w, id: number) => ({ workflow: { id, extractors_config: { q: { type: "question", task_key: "T0" } } } }),
    unchanged: async (_w, id: number) => db().engineWorkflow.count({ where: { id } }),
  },
  {
    route: "/engine/workflows/[id]",
    name: "/engine/workflows/:id",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}`,
  },
  {
    route: "/engine/workflows/[id]",
    name: "/engine/workflows/:id",
    method: "PUT",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}`,
    body: () => ({ workflow: { rules_applied: "all_matching_rules" } }),
  },
  ...(["extractors", "reducers"] as const).flatMap((kind): Row[] => [
    {
      route: `/engine/workflows/[id]/${kind}`,
      name: `/${kind}`,
      method: "GET",
      expect: editors(200),
      path: (w) => `${W}/${w.workflowId}/${kind}`,
    },
    {
      route: `/engine/workflows/[id]/${kind}`,
      name: `/${kind}`,
      method: "POST",
      expect: editors(201),
      path: (w) => `${W}/${w.workflowId}/${kind}`,
      body: (_w, _f, actor) => {
        const key = `${kind[0]}_new_${actor}`;
        return kind === "extractors" ? { extractor: { key, type: "blank", task_key: "T0" } } : { reducer: { key, type: "count" } };
      },
      unchanged: (w, _f, actor) => keyedRow(w, kind, `${kind[0]}_new_${actor}`),
    },
    {
      route: `/engine/workflows/[id]/${kind}/[key]`,
      name: `/${kind}/:key`,
      method: "GET",
      expect: editors(200),
      path: (w) => `${W}/${w.workflowId}/${kind}/q${kind[0]}`,
    },
    {
      route: `/engine/workflows/[id]/${kind}/[key]`,
      name: `/${kind}/:key`,
      method: "PUT",
      expect: editors(200),
      fresh: (w, actor) => freshKeyed(w, kind, actor),
      path: (w, key: string) => `${W}/${w.workflowId}/${kind}/${key}`,
      unchanged: (w, key: string) => keyedRow(w, kind, key),
      body: () => (kind === "extractors" ? { extractor: { if_missing: "ignore" } } : { reducer: { reduction_mode: "running_reduction" } }),
    },
    {
      route: `/engine/workflows/[id]/${kind}/[key]`,
      name: `/${kind}/:key`,
      method: "DELETE",
      expect: editors(204),
      fresh: (w, actor) => freshKeyed(w, kind, actor),
      path: (w, key: string) => `${W}/${w.workflowId}/${kind}/${key}`,
      unchanged: (w, key: string) => keyedRow(w, kind, key),
    },
  ]),
  {
    route: "/engine/workflows/[id]/extractors/[key]/extracts",
    name: "/extractors/:key/extracts",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/extractors/qe/extracts?subject_id=${w.subjectId}`,
  },
  {
    route: "/engine/workflows/[id]/extractors/[key]/extracts",
    name: "/extractors/:key/extracts",
    method: "POST",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/extractors/qe/extracts`,
    body: (w, _f, actor) => ({
      subject_id: w.subjectId,
      classification_id: w.classificationId,
      classification_at: new Date().toISOString(),
      data: { by: actor },
    }),
    unchanged: (w, _f, actor) => q(`SELECT id FROM extracts WHERE workflow_id = $1 AND data->>'by' = $2`, w.workflowId, actor),
  },
  {
    route: "/engine/workflows/[id]/extracts",
    name: "/extracts",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/extracts`,
  },
  {
    route: "/engine/workflows/[id]/extracts/import",
    name: "/extracts/import",
    method: "POST",
    expect: editors(202),
    path: (w) => `${W}/${w.workflowId}/extracts/import`,
    body: (_w, _f, actor) => ({ file: `https://files.example.org/${actor}.csv` }),
    unchanged: (_w, _f, actor) =>
      q(
        `SELECT id FROM background_jobs WHERE kind = 'engine_extracts_import' AND params->>'url' = $1`,
        `https://files.example.org/${actor}.csv`,
      ),
  },
  ...(["POST", "PUT"] as const).map(
    (method): Row => ({
      route: "/engine/workflows/[id]/reducers/[key]/reductions",
      name: "/reducers/:key/reductions",
      method,
      expect: editors(200),
      path: (w) => `${W}/${w.workflowId}/reducers/qr/reductions`,
      body: (w, _f, actor) => ({ subject_id: w.subjectId, subgroup: `${method}-${actor}`, data: { classifications: 1 } }),
      unchanged: (w, _f, actor) =>
        q(`SELECT id FROM subject_reductions WHERE workflow_id = $1 AND subgroup = $2`, w.workflowId, `${method}-${actor}`),
    }),
  ),
  {
    route: "/engine/workflows/[id]/reducers/[key]/reductions",
    name: "/reducers/:key/reductions",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/reducers/qr/reductions?subject_id=${w.subjectId}`,
  },
  {
    route: "/engine/workflows/[id]/reductions",
    name: "/reductions",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/reductions`,
  },
  {
    route: "/engine/workflows/[id]/subjects/[subject_id]/reductions",
    name: "/subjects/:subject_id/reductions",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/subjects/${w.subjectId}/reductions`,
  },
  ...(["subject", "user"] as const).flatMap((topic): Row[] => [
    {
      route: `/engine/workflows/[id]/${topic}_rules`,
      name: `/${topic}_rules`,
      method: "GET",
      expect: editors(200),
      path: (w) => `${W}/${w.workflowId}/${topic}_rules`,
    },
    {
      route: `/engine/workflows/[id]/${topic}_rules`,
      name: `/${topic}_rules`,
      method: "POST",
      expect: editors(201),
      path: (w) => `${W}/${w.workflowId}/${topic}_rules`,
      body: (_w, _f, actor) => ({ [`${topic}_rule`]: { condition: ["eq", ["const", actor], ["const", "x"]] } }),
      unchanged: (w, _f, actor) =>
        q(
          `SELECT id FROM engine_rules WHERE workflow_id = $1 AND condition = $2::jsonb`,
          w.workflowId,
          JSON.stringify(["eq", ["const", actor], ["const", "x"]]),
        ),
    },
    ...(["GET", "PUT", "DELETE"] as const).map(
      (method): Row => ({
        route: `/engine/workflows/[id]/${topic}_rules/[rule_id]`,
        name: `/${topic}_rules/:rule_id`,
        method,
        expect: editors(method === "DELETE" ? 204 : 200),
        fresh: (w) => freshRule(w, topic),
        path: (w, f: { rule: number }) => `${W}/${w.workflowId}/${topic}_rules/${f.rule}`,
        body: method === "PUT" ? () => ({ [`${topic}_rule`]: { condition: ["const", true] } }) : undefined,
        unchanged: method === "GET" ? undefined : (_w, f: { rule: number }) => ruleRow(f.rule),
      }),
    ),
    {
      route: `/engine/workflows/[id]/${topic}_rules/[rule_id]/${topic}_rule_effects`,
      name: `/${topic}_rules/:rule_id/${topic}_rule_effects`,
      method: "GET",
      expect: editors(200),
      fresh: (w) => freshRule(w, topic),
      path: (w, f: { rule: number }) => `${W}/${w.workflowId}/${topic}_rules/${f.rule}/${topic}_rule_effects`,
    },
    {
      route: `/engine/workflows/[id]/${topic}_rules/[rule_id]/${topic}_rule_effects`,
      name: `/${topic}_rules/:rule_id/${topic}_rule_effects`,
      method: "POST",
      expect: editors(201),
      fresh: (w) => freshRule(w, topic),
      path: (w, f: { rule: number }) => `${W}/${w.workflowId}/${topic}_rules/${f.rule}/${topic}_rule_effects`,
      body: (w) => ({
        [`${topic}_rule_effect`]:
          topic === "subject"
            ? { action: "retire_subject", config: {} }
            : { action: "promote_user", config: { workflow_id: String(w.workflowId) } },
      }),
      unchanged: (_w, f: { rule: number }) => ruleRow(f.rule),
    },
    ...(["GET", "PUT", "DELETE"] as const).map(
      (method): Row => ({
        route: `/engine/workflows/[id]/${topic}_rules/[rule_id]/${topic}_rule_effects/[effect_id]`,
        name: `/${topic}_rules/:rule_id/${topic}_rule_effects/:effect_id`,
        method,
        expect: editors(method === "DELETE" ? 204 : 200),
        fresh: (w) => freshRule(w, topic),
        path: (w, f: { rule: number; effect: number }) => `${W}/${w.workflowId}/${topic}_rules/${f.rule}/${topic}_rule_effects/${f.effect}`,
        body:
          method === "PUT"
            ? (w) => ({
                [`${topic}_rule_effect`]:
                  topic === "subject"
                    ? { action: "retire_subject", config: { reason: "consensus" } }
                    : { action: "promote_user", config: { workflow_id: String(w.workflowId) } },
              })
            : undefined,
        unchanged: method === "GET" ? undefined : (_w, f: { rule: number }) => ruleRow(f.rule),
      }),
    ),
  ]),
  {
    route: "/engine/workflows/[id]/actions",
    name: "/actions",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/actions`,
  },
  {
    route: "/engine/workflows/[id]/actions/[action_id]/retry",
    name: "/actions/:action_id/retry",
    method: "POST",
    expect: editors(200),
    fresh: async (w, actor) =>
      (
        await pool().query<{ id: number }>(
          `INSERT INTO engine_actions (workflow_id, dedupe_key, topic, subject_id, effect_type, config, status, error)
           VALUES ($1, $2, 'subject', $3, 'retire_subject', '{}', 'failed', 'test') RETURNING id`,
          [w.workflowId, `matrix-${actor}-${uid()}`, w.subjectId],
        )
      ).rows[0].id,
    path: (w, id: number) => `${W}/${w.workflowId}/actions/${id}/retry`,
    unchanged: async (_w, id: number) => (await pool().query(`SELECT status, attempts FROM engine_actions WHERE id = $1`, [id])).rows,
  },
  {
    route: "/engine/workflows/[id]/refresh_subject_metadata",
    name: "/refresh_subject_metadata (admins only)",
    method: "POST",
    expect: statuses(403, { anonymous: 401, admin: 200 }),
    path: (w) => `${W}/${w.workflowId}/refresh_subject_metadata`,
  },
  {
    route: "/engine/workflows/[id]/dry_run",
    name: "/dry_run",
    method: "POST",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/dry_run`,
    body: () => ({ workflow: { extractors_config: { q: { type: "question", task_key: "T0" } } }, last: 5 }),
  },
  {
    route: "/engine/workflows/[id]/data_requests",
    name: "/data_requests",
    method: "GET",
    expect: editors(200),
    path: (w) => `${W}/${w.workflowId}/data_requests`,
  },
  {
    route: "/engine/workflows/[id]/data_requests",
    name: "/data_requests",
    method: "POST",
    expect: editors(201),
    path: (w) => `${W}/${w.workflowId}/data_requests`,
    // A subgroup per actor: asking again for the same data while it is being made answers the pending request.
    body: (_w, _f, actor) => ({ data_request: { requested_data: "subject_reductions", subgroup: `post-${actor}` } }),
  },
  {
    route: "/engine/workflows/[id]/data_requests/[request_id]",
    name: "/data_requests/:request_id",
    method: "GET",
    expect: editors(200),
    fresh: async (w, actor) => {
      const res = await engine.post(
        `/workflows/${w.workflowId}/data_requests`,
        { data_request: { requested_data: "subject_reductions", subgroup: `get-${actor}` } },
        owner(w),
      );
      expect(res.status).toBe(201);
      return res.body.id as number;
    },
    path: (w, id: number) => `${W}/${w.workflowId}/data_requests/${id}`,
  },
  {
    route: "/engine/classifications",
    name: "/engine/classifications (forwarded to the workflow)",
    method: "POST",
    expect: editors(202),
    path: () => "/engine/classifications",
    body: (w, _f, actor) => ({
      id: 1_500_000_000 + actorNumber(actor),
      workflow_id: w.workflowId,
      subject_id: w.subjectId,
      annotations: { T0: [{ task: "T0", value: 0 }] },
    }),
    unchanged: (w, _f, actor) =>
      q(`SELECT id FROM engine_classifications WHERE workflow_id = $1 AND id = $2`, w.workflowId, 1_500_000_000 + actorNumber(actor)),
  },
];

async function setup(): Promise<World> {
  const cast: Cast = await createCast();
  const project = await castProject(cast, { private: true });
  const workflow = await createWorkflow(project.id);
  const { subjects } = await createSubjectSet(project.id, 1, { workflowIds: [workflow.id] });
  const config = {
    id: workflow.id,
    extractors_config: { qe: { type: "question", task_key: "T0" } },
    reducers_config: { qr: { type: "count" } },
    rules_config: [],
  };
  expect((await engine.post("/workflows", { workflow: config }, cast.token("owner"))).status).toBe(201);
  const created = await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: cast.token("owner") });
  expect(created.status).toBe(201);
  return {
    cast,
    secrets: [],
    projectId: project.id,
    workflowId: workflow.id,
    subjectId: subjects[0].id,
    classificationId: Number(created.body.classifications[0].id),
  };
}

authorizationMatrix("the decision engine's authorization matrix", setup, rows);

describe("the engine matrix covers every endpoint", () => {
  it("has a row for every /engine route and method the route files take", () => {
    const app = path.resolve(import.meta.dirname, "../../../app");
    const want = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else if (entry.name === "route.ts") {
          const route = `/${path.relative(app, dir)}`;
          if (route.includes("[...")) continue; // the JSON 404 for unknown paths
          const source = fs.readFileSync(path.join(dir, entry.name), "utf8");
          const allowed = /methodNotAllowed\(\[([^\]]*)\]\)/.exec(source);
          expect(allowed, `${route}: declares the methods it takes (methodNotAllowed([...]))`).not.toBeNull();
          for (const m of allowed![1].matchAll(/"(\w+)"/g)) want.add(`${m[1]} ${route}`);
        }
      }
    };
    walk(path.join(app, "engine"));
    expect(new Set(rows.map((r) => `${r.method} ${r.route}`))).toEqual(want);
  });
});
