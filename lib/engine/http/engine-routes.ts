import { z } from "zod";
import { resolveActor, type Actor } from "@/lib/auth/actor";
import { pool, readPool } from "@/lib/db";
import { withTransaction, type Sql } from "@/lib/db/sql";
import { loadWorkflowForActor } from "@/lib/domain/load-workflow";
import { parseEngineWorkflowConfig, type TEngineWorkflowConfig } from "@/lib/engine/config";
import { AppError, forbidden, notFound, unauthorized, unprocessable } from "@/lib/errors";
import { jsonRoute } from "@/lib/http/api-route";
import { MAX_PAGE } from "@/lib/http/jsonapi";
import { MAX_BODY_BYTES, parseJsonText, readBodyText, readJsonBody } from "@/lib/http/request";
import { parseCountParam, parseIdValue, parsePathId } from "@/lib/text/params";
import { json } from "@/lib/http/respond";
import { asksForPage, engineLastId, enginePage, enginePageSize } from "./engine-paging";
import { isScalarText } from "@/lib/text/scalar-text";
import { refreshSubjectMetadata } from "@/lib/engine/run/classification-data";
import { enqueueEvents } from "@/lib/engine/run/enqueue-events";
import { EVENTS, type EngineEvent } from "@/lib/engine/run/events";
import { wireExtract } from "@/lib/engine/reducers";
import {
  extractClassificationAt,
  type ExtractRow,
  extractsPageSql,
  onlyExtractFrom,
  reductionOf,
  reductionsFor,
  saveReduction,
  subjectExtracts,
  TOPIC_OF_REDUCER,
  upsertExtract,
  wireExtractRow,
} from "@/lib/engine/run/engine-data";
import type { RuleTopic } from "@/lib/engine/rules";
import { requireEffectTargets, requireIdsInScope } from "@/lib/engine/run/boundary";
import { handToEngine } from "@/lib/engine/run/engine-inbox";
import { startExtractsImport } from "@/lib/engine/run/import-extracts";
import { forgetEngineWorkflow, loadEngineWorkflow, saveEngineWorkflow, serializeEngineWorkflow } from "@/lib/engine/run/workflow-config";

// The decision engine's HTTP API under /engine: plain JSON, bearer-authenticated. Every endpoint is for
// the owners and collaborators of the workflow's project, and admins; a workflow the caller may not see is
// a 404. Writes that start pipeline work add its events in the same transaction (never lost).
// The lists of extracts and reductions read through readPool() (the replica when one is configured, a
// moment behind); access checks, writes and what a write answers read the primary.

type Handler = (ctx: { req: Request; url: URL; params: Record<string, string>; actor: Actor }) => Promise<Response>;

/**
 * Every /engine endpoint: JSON bodies, a signed-in caller, and the token scope `project` for reads and
 * writes alike (each serves the editors of the workflow's project, as project settings do; a browser
 * session carries every scope).
 */
export function engineRoute(handler: Handler) {
  return jsonRoute({ scope: "project" }, async (req, params) => {
    if ((req.method === "POST" || req.method === "PUT") && !/^application\/json\b/i.test(req.headers.get("content-type") ?? "")) {
      throw new AppError("unsupported_media_type", "Content-Type must be application/json");
    }
    const actor = await resolveActor(req);
    if (!actor.user) throw unauthorized("A bearer token is required");
    return handler({ req, url: new URL(req.url), params, actor });
  });
}

/**
 * The caller must edit the workflow's project (or be an admin). A workflow component A does not have
 * (fed by an external forwarder) is configurable by admins only.
 */
export async function requireWorkflowEditor(client: Sql, actor: Actor, workflowId: number): Promise<{ projectId: number | null }> {
  try {
    const w = await loadWorkflowForActor(client, workflowId, actor);
    if (!w.canEdit) throw forbidden("Only the project's owners and collaborators may use the decision engine for this workflow");
    return { projectId: w.projectId };
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found" && actor.user?.admin) return { projectId: null };
    throw err;
  }
}

/** The established engine's words for a workflow it does not have (the Python client's save_workflow looks for them). */
export function workflowNotFound(workflowId: number): AppError {
  return notFound(`Couldn't find Workflow with 'id'=${workflowId}`);
}

export async function requireEngineWorkflow(actor: Actor, workflowId: number) {
  await requireWorkflowEditor(pool(), actor, workflowId);
  const workflow = await loadEngineWorkflow(pool(), workflowId, { fresh: true });
  if (!workflow) throw workflowNotFound(workflowId);
  return workflow;
}

/** Every effect of a configuration's rules. */
const allEffects = (config: Pick<TEngineWorkflowConfig, "rules_config">) => (config.rules_config ?? []).flatMap((r) => r.then ?? []);

function configError(message: string): never {
  throw unprocessable(message);
}

/** POST /engine/workflows: adds a workflow to the engine with its whole configuration. */
export const createWorkflow = engineRoute(async ({ req, actor }) => {
  const parsed = parseEngineWorkflowConfig(await readJsonBody(req));
  if (!parsed.ok) configError(parsed.message);
  const config = parsed.value;
  await withTransaction(async (client) => {
    const { projectId } = await requireWorkflowEditor(client, actor, config.id);
    const exists = await client.query(`SELECT 1 FROM engine_workflows WHERE id = $1 FOR UPDATE`, [config.id]);
    if (exists.rowCount)
      throw unprocessable(`workflow ${config.id} is already in the decision engine: change it with PUT /engine/workflows/${config.id}`);
    await requireEffectTargets(client, actor, { workflowId: config.id, projectId }, allEffects(config));
    await saveEngineWorkflow(client, config, projectId);
  });
  forgetEngineWorkflow(config.id);
  return json(serializeEngineWorkflow((await loadEngineWorkflow(pool(), config.id, { fresh: true }))!), 201);
});

export const showWorkflow = engineRoute(async ({ params, actor }) => {
  const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
  return json(serializeEngineWorkflow(workflow));
});

/** PUT /engine/workflows/<id>: top-level keys given replace the stored ones; the result is validated whole. */
export const updateWorkflow = engineRoute(async ({ req, params, actor }) => {
  const id = parsePathId(params.id, "workflows");
  const body = await readJsonBody(req);
  const given = (body.workflow ?? body) as Record<string, unknown>;
  if (!given || typeof given !== "object" || Array.isArray(given)) configError("workflow: must be an object");
  if (given.id !== undefined && !(isScalarText(given.id) && String(given.id) === String(id)))
    configError(`id: must be ${id}, the workflow in the path`);
  await withTransaction(async (client) => {
    const { projectId } = await requireWorkflowEditor(client, actor, id);
    await client.query(`SELECT 1 FROM engine_workflows WHERE id = $1 FOR UPDATE`, [id]);
    const current = await loadEngineWorkflow(client, id, { fresh: true });
    if (!current) throw workflowNotFound(id);
    const { project_id: _p, created_at: _c, updated_at: _u, ...stored } = current;
    const parsed = parseEngineWorkflowConfig({ ...stored, ...given, id });
    if (!parsed.ok) configError(parsed.message);
    await requireEffectTargets(client, actor, { workflowId: id, projectId }, allEffects(parsed.value), allEffects(current));
    await saveEngineWorkflow(client, parsed.value, projectId);
  });
  forgetEngineWorkflow(id);
  return json(serializeEngineWorkflow((await loadEngineWorkflow(pool(), id, { fresh: true }))!));
});

function requiredQueryId(url: URL, name: string): number {
  const raw = url.searchParams.get(name);
  if (raw === null) throw unprocessable(`${name} is required`);
  return parseIdValue(raw, name);
}

/** The configured extractor or reducer a path names: own keys only (`constructor` names none unless configured). */
function configuredKey(map: Record<string, unknown> | undefined, key: string, what: string) {
  const config = map && Object.hasOwn(map, key) ? map[key] : undefined;
  if (!config) throw notFound(`No ${what} '${key}' in this workflow`);
  return config as Record<string, unknown>;
}

/**
 * Reading a workflow's extracts or reductions: its editors, or, when the workflow makes them public
 * (public_extracts, public_reductions), anyone who may see the workflow.
 */
async function requireDataReader(actor: Actor, workflowId: number, data: "public_extracts" | "public_reductions") {
  const workflow = await loadEngineWorkflow(pool(), workflowId, { fresh: true });
  if (workflow?.[data]) {
    try {
      await loadWorkflowForActor(pool(), workflowId, actor);
      return workflow;
    } catch (err) {
      if (!(err instanceof AppError && err.code === "not_found" && actor.user?.admin)) throw err;
    }
  }
  return requireEngineWorkflow(actor, workflowId);
}

async function extractsPage(
  url: URL,
  workflowId: number,
  narrow: { subject_id?: number | null; user_id?: number | null; extractor_key?: string | null },
) {
  const size = enginePageSize(url);
  const { text, values } = extractsPageSql(workflowId, engineLastId(url) ?? 0, size + 1, narrow);
  const { rows } = await readPool().query<ExtractRow>(text, values);
  const page = enginePage(url, rows, size, (last) => ({ last_id: String(last.id) }));
  return json(page.rows.map(wireExtractRow), 200, page.headers);
}

/**
 * GET /engine/workflows/<id>/extractors/<key>/extracts?subject_id=: the subject's extracts of that extractor;
 * a key that names no extractor (clients of the established engine send "extractor") lists every
 * extractor's, as the established engine does. All of them in classification order, or with `last_id` or
 * `page_size` a keyset page in id order (lib/engine/http/engine-paging.ts).
 */
export const listExtracts = engineRoute(async ({ url, params, actor }) => {
  const workflow = await requireDataReader(actor, parsePathId(params.id, "workflows"), "public_extracts");
  const subjectId = requiredQueryId(url, "subject_id");
  const key = Object.hasOwn(workflow.extractors_config, params.key) ? params.key : null;
  if (asksForPage(url)) return extractsPage(url, workflow.id, { subject_id: subjectId, extractor_key: key });
  return json((await subjectExtracts(readPool(), workflow.id, subjectId, key)).map(wireExtractRow));
});

const WORKFLOW_EXTRACTS_PARAMS = ["last_id", "page_size", "subject_id", "user_id", "extractor_key"];

/**
 * GET /engine/workflows/<id>/extracts: the workflow's extracts in id order, a keyset page at a time
 * (`last_id`, `page_size`, Link rel="next"), optionally of one subject, volunteer or extractor.
 */
export const listWorkflowExtracts = engineRoute(async ({ url, params, actor }) => {
  const workflow = await requireDataReader(actor, parsePathId(params.id, "workflows"), "public_extracts");
  for (const name of url.searchParams.keys())
    if (!WORKFLOW_EXTRACTS_PARAMS.includes(name))
      throw unprocessable(`Unknown parameter '${name}'; this list takes ${WORKFLOW_EXTRACTS_PARAMS.join(", ")}`);
  const optionalId = (name: string) => (url.searchParams.get(name) ? parseIdValue(url.searchParams.get(name), name) : null);
  return extractsPage(url, workflow.id, {
    subject_id: optionalId("subject_id"),
    user_id: optionalId("user_id"),
    extractor_key: url.searchParams.get("extractor_key") || null,
  });
});

/** An id as a number or a digit string, within Postgres int (larger ones are a 422, not a database error). */
const ZWireId = z
  .union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  ])
  .refine((n) => n <= 2147483647, "must be at most 2147483647");
const ZNullableId = ZWireId.nullable();
const ZExtractBody = z.strictObject({
  subject_id: ZWireId,
  classification_id: ZNullableId.optional(),
  classification_at: z.iso.datetime({ offset: true }).optional(),
  user_id: ZNullableId.optional(),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** POST .../extracts: upsert keyed by classification (without classification_id: the subject's extract from that user); starts reduction. */
export const upsertExtractRoute = engineRoute(async ({ req, params, actor }) => {
  const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
  configuredKey(workflow.extractors_config, params.key, "extractor");
  const body = ZExtractBody.parse(await readJsonBody(req));
  const extract = await withTransaction(async (client) => {
    await requireIdsInScope(
      client,
      { workflowId: workflow.id, projectId: workflow.project_id },
      { subjects: [body.subject_id], users: [body.user_id], classifications: [body.classification_id] },
    );
    let classificationId = body.classification_id ?? null;
    let classificationAt = body.classification_at;
    if (classificationId === null) {
      const only = await onlyExtractFrom(client, workflow.id, params.key, body.subject_id, body.user_id ?? null);
      if (!only)
        throw unprocessable("classification_id is required to create an extract (or when the subject has several extracts from that user)");
      classificationId = only.classification_id;
      classificationAt ??= only.classification_at.toISOString();
    }
    if (!classificationAt) {
      const at = await extractClassificationAt(client, workflow.id, classificationId, params.key);
      if (!at) throw unprocessable("classification_at is required to create an extract");
      classificationAt = at.toISOString();
    }
    const e = {
      workflowId: workflow.id,
      subjectId: body.subject_id,
      userId: body.user_id ?? null,
      classificationId: classificationId!,
      classificationAt: classificationAt!,
      extractorKey: params.key,
      data: body.data ?? null,
    };
    const id = await upsertExtract(client, e);
    const events: EngineEvent[] = [
      { name: EVENTS.extractsChanged, data: { workflow_id: workflow.id, topic: "subject", target_id: e.subjectId } },
    ];
    if (e.userId) events.push({ name: EVENTS.extractsChanged, data: { workflow_id: workflow.id, topic: "user", target_id: e.userId } });
    await enqueueEvents(client, events);
    return wireExtract({ ...e, id, data: e.data as Record<string, unknown> | null });
  });
  return json(extract, 200);
});

function reductionTarget(url: URL, body?: Record<string, unknown>): { topic: "subject" | "user"; id: number } {
  const subject = body?.subject_id ?? url.searchParams.get("subject_id");
  const user = body?.user_id ?? url.searchParams.get("user_id");
  if ((subject == null) === (user == null)) throw unprocessable("give exactly one of subject_id or user_id");
  return subject != null
    ? { topic: "subject", id: parseIdValue(subject, "subject_id") }
    : { topic: "user", id: parseIdValue(user, "user_id") };
}

/**
 * A subject's or a volunteer's reductions (of every reducer, or one): all of them by reducer and subgroup,
 * or with `last_id` or `page_size` a keyset page in id order.
 */
async function reductionsOf(url: URL, workflowId: number, target: { topic: "subject" | "user"; id: number }, reducerKey: string | null) {
  if (!asksForPage(url)) return json(await reductionsFor(readPool(), target.topic, workflowId, target.id, reducerKey));
  const size = enginePageSize(url);
  const rows = await reductionsFor(readPool(), target.topic, workflowId, target.id, reducerKey, {
    lastId: engineLastId(url) ?? 0,
    limit: size + 1,
  });
  const page = enginePage(url, rows, size, (last) => ({ last_id: String(last.id) }));
  return json(page.rows, 200, page.headers);
}

/** GET .../reducers/<key>/reductions?subject_id= (or user_id=) */
export const listReductions = engineRoute(async ({ url, params, actor }) => {
  const workflow = await requireDataReader(actor, parsePathId(params.id, "workflows"), "public_reductions");
  return reductionsOf(url, workflow.id, reductionTarget(url), params.key);
});

/** GET /engine/workflows/<id>/subjects/<subject id>/reductions[?reducer_key=]: the subject's reductions (of every reducer, or one). */
export const listSubjectReductions = engineRoute(async ({ url, params, actor }) => {
  const workflow = await requireDataReader(actor, parsePathId(params.id, "workflows"), "public_reductions");
  return reductionsOf(
    url,
    workflow.id,
    { topic: "subject", id: parsePathId(params.subject_id, "subjects") },
    url.searchParams.get("reducer_key")?.trim() || null,
  );
});

/**
 * POST .../reducers/<key>/reductions: stores a reduction computed by an external process and starts rule
 * evaluation. Body: the data itself with subject_id or user_id in the query, or
 * `{subject_id | user_id, data, subgroup?}`.
 */
export const postReduction = engineRoute(async ({ req, url, params, actor }) => {
  const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
  const reducer = configuredKey(workflow.reducers_config, params.key, "reducer");
  const body = await readJsonBody(req);
  const wrapped = "data" in body && (body.subject_id != null || body.user_id != null);
  const target = reductionTarget(url, wrapped ? body : undefined);
  if (TOPIC_OF_REDUCER[(reducer.topic ?? "reduce_by_subject") as "reduce_by_subject"] !== target.topic)
    throw unprocessable(`reducer '${params.key}' reduces by ${reducer.topic ?? "reduce_by_subject"}`);
  const data = wrapped ? body.data : body;
  if (!data || typeof data !== "object" || Array.isArray(data)) throw unprocessable("data must be a JSON object");
  if (wrapped && body.subgroup != null && !isScalarText(body.subgroup)) throw unprocessable("subgroup must be a string");
  const subgroup = wrapped && body.subgroup != null ? String(body.subgroup) : "_default";
  const saved = await withTransaction(async (client) => {
    await requireIdsInScope(
      client,
      { workflowId: workflow.id, projectId: workflow.project_id },
      target.topic === "subject" ? { subjects: [target.id] } : { users: [target.id] },
    );
    await saveReduction(client, target.topic, {
      workflowId: workflow.id,
      targetId: target.id,
      reducerKey: params.key,
      subgroup,
      data,
      store: null,
    });
    await enqueueEvents(client, [
      { name: EVENTS.reductionsChanged, data: { workflow_id: workflow.id, topic: target.topic, target_id: target.id } },
    ]);
    return reductionOf(client, target.topic, workflow.id, target.id, params.key, subgroup);
  });
  return json(saved, 200);
});

const ZImportBody = z.strictObject({ file: z.url({ protocol: /^https?$/, message: "file must be the http(s) URL of the CSV" }) });

/** POST /engine/workflows/<id>/extracts/import {"file": url}: imports machine extracts from a CSV in the background (202). */
export const importExtractsRoute = engineRoute(async ({ req, params, actor }) => {
  const workflowId = parsePathId(params.id, "workflows");
  const body = await readJsonBody(req);
  if (!("file" in body)) throw unprocessable("file (the CSV's URL) is required");
  const { file } = ZImportBody.parse(body);
  const { project_id: projectId } = await requireEngineWorkflow(actor, workflowId);
  if (projectId === null) throw unprocessable("Extracts can be imported only for workflows of a project");
  const job = await startExtractsImport(actor, workflowId, projectId, file);
  return json({ id: job.id, kind: job.kind, status: job.status, href: `/background_jobs/${job.id}` }, 202);
});

/** An effect the engine performed or will, as the actions list and a retry answer it (times as Date: JSON makes them ISO strings). */
export interface EngineActionRow {
  id: number;
  workflow_id: number;
  topic: RuleTopic;
  subject_id: number | null;
  user_id: number | null;
  effect_type: string;
  /** The rule effect's configuration, as the rule gave it. */
  config: Record<string, unknown>;
  status: "pending" | "completed" | "failed";
  attempts: number;
  error: string | null;
  performed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** GET /engine/workflows/<id>/actions: recent actions, newest first (`status`, `page_size` up to 100, `before_id`). */
export const listActions = engineRoute(async ({ url, params, actor }) => {
  const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
  const status = url.searchParams.get("status");
  if (status !== null && !["pending", "completed", "failed"].includes(status))
    throw unprocessable("status must be pending, completed or failed");
  const size = parseCountParam(url.searchParams.get("page_size"), "page_size", { fallback: 50, clampAbove: 100 });
  const before = url.searchParams.get("before_id");
  const { rows } = await pool().query<EngineActionRow>(
    `SELECT id, workflow_id, topic, subject_id, user_id, effect_type, config, status, attempts, error, performed_at, created_at, updated_at
     FROM engine_actions WHERE workflow_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::int IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
    [workflow.id, status, before === null ? null : parseIdValue(before, "before_id"), size],
  );
  return json(rows);
});

/** A subject reduction as the workflow's reductions list answers it, with the subject's retirement (times as Date: JSON makes them ISO strings). */
export interface WorkflowReductionRow {
  id: number;
  reducer_key: string;
  subject_id: number;
  workflow_id: number;
  subgroup: string;
  /** The reducer's output (each reducer documents its shape). */
  data: unknown;
  created_at: Date;
  updated_at: Date;
  retired_at: Date | null;
  retirement_reason: string | null;
}

/**
 * GET /engine/workflows/<id>/reductions: the workflow's subject reductions, each with the subject's
 * retirement. By default most recently changed first (`page`, `page_size` up to 100): for monitoring a
 * workflow live. With `last_id` a keyset page in id order (`last_id=0` from the first), for walking them
 * all. Either way a Link rel="next" header names the next page when there is one.
 */
export const listWorkflowReductions = engineRoute(async ({ url, params, actor }) => {
  const workflow = await requireDataReader(actor, parsePathId(params.id, "workflows"), "public_reductions");
  const size = enginePageSize(url);
  const lastId = engineLastId(url);
  const page = lastId === null ? parseCountParam(url.searchParams.get("page"), "page", { fallback: 1, max: MAX_PAGE }) : 1;
  const skip = (page - 1) * size;
  const order =
    lastId === null ? `ORDER BY r.updated_at DESC, r.id DESC LIMIT $2${skip ? " OFFSET $3" : ""}` : "AND r.id > $3 ORDER BY r.id LIMIT $2";
  const { rows } = await readPool().query<WorkflowReductionRow>(
    `SELECT r.id, r.reducer_key, r.subject_id, r.workflow_id, r.subgroup, r.data, r.created_at, r.updated_at, sws.retired_at, sws.retirement_reason
     FROM subject_reductions r LEFT JOIN subject_workflow_statuses sws ON sws.subject_id = r.subject_id AND sws.workflow_id = r.workflow_id
     WHERE r.workflow_id = $1 ${order}`,
    [workflow.id, size + 1, ...(lastId === null ? (skip ? [skip] : []) : [lastId])],
  );
  const paged = enginePage(
    url,
    rows,
    size,
    (last): Record<string, string> => (lastId === null ? { page: String(page + 1) } : { last_id: String(last.id) }),
  );
  return json(paged.rows, 200, paged.headers);
});

/** POST /engine/workflows/<id>/actions/<action id>/retry: a failed action is performed again (its attempts start afresh). */
export const retryAction = engineRoute(async ({ params, actor }) => {
  const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
  const actionId = parsePathId(params.action_id, "actions");
  const action = await withTransaction(async (client) => {
    const { rows } = await client.query<EngineActionRow>(
      `UPDATE engine_actions SET status = 'pending', attempts = 0, error = NULL, updated_at = now() WHERE id = $1 AND workflow_id = $2 AND status = 'failed'
       RETURNING id, workflow_id, topic, subject_id, user_id, effect_type, config, status, attempts, error, performed_at, created_at, updated_at`,
      [actionId, workflow.id],
    );
    if (!rows[0]) {
      const exists = await client.query<{ status: string }>(`SELECT status FROM engine_actions WHERE id = $1 AND workflow_id = $2`, [
        actionId,
        workflow.id,
      ]);
      if (!exists.rows[0]) throw notFound(`Could not find action ${actionId} of workflow ${workflow.id}`);
      throw unprocessable(`Only a failed action can be retried; this one is ${exists.rows[0].status}`);
    }
    await enqueueEvents(client, [
      {
        name: rows[0].effect_type === "external_effect" ? EVENTS.externalActionCreated : EVENTS.actionCreated,
        data: { action_id: rows[0].id },
      },
    ]);
    return rows[0];
  });
  return json(action, 200);
});

/** POST /engine/workflows/<id>/refresh_subject_metadata: admins re-read cached subject metadata from component A. */
export const refreshSubjects = engineRoute(async ({ params, actor }) => {
  if (!actor.user?.admin) throw forbidden("Only admins may refresh the engine's subject metadata");
  const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
  const refreshed = await withTransaction((client) => refreshSubjectMetadata(client, workflow.id));
  return json({ refreshed });
});

export const ZInboundClassification = z
  .looseObject({
    id: ZWireId,
    workflow_id: ZWireId,
    project_id: z.union([z.number(), z.string()]).optional(),
    subject_id: ZWireId.optional(),
    subject_ids: z.array(ZWireId).min(1).optional(),
    user_id: ZNullableId.optional(),
    workflow_version: z.string().optional(),
    annotations: z.union([z.array(z.looseObject({ task: z.string(), value: z.unknown() })), z.record(z.string(), z.unknown())]),
    metadata: z.record(z.string(), z.unknown()).default({}),
    subject: z.looseObject({ id: z.unknown().optional(), metadata: z.record(z.string(), z.unknown()).optional() }).optional(),
    created_at: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((c) => c.subject_id !== undefined || c.subject_ids !== undefined, "subject_id is required");

/** POST /engine/classifications: one classification or an array from a forwarder; 202 once durably queued. */
export const ingestClassifications = engineRoute(async ({ req, actor }) => {
  // Up to 1,000 classifications at once: a larger limit than the API's single records.
  const parsed = parseJsonText(await readBodyText(req, 4 * MAX_BODY_BYTES));
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.length || list.length > 1000) throw unprocessable("send 1 to 1000 classifications");
  const items = z.array(ZInboundClassification).parse(list);
  await withTransaction(async (client) => {
    for (const workflowId of new Set(items.map((c) => c.workflow_id))) {
      const { projectId } = await requireWorkflowEditor(client, actor, workflowId);
      // A workflow of a project takes only that project's subjects and volunteers; one without a project
      // (admins only) names its forwarder's own.
      const mine = items.filter((c) => c.workflow_id === workflowId);
      await requireIdsInScope(
        client,
        { workflowId, projectId },
        { subjects: mine.flatMap((c) => [c.subject_id, ...(c.subject_ids ?? [])]), users: mine.map((c) => c.user_id) },
      );
    }
    // A classification sent twice in one batch: the later copy wins. Forwarded ids are per workflow: the
    // same id for another workflow is another classification, and is never touched.
    const unique = [...new Map(items.map((c) => [`${c.workflow_id}:${c.id}`, c])).values()];
    await client.query(
      `INSERT INTO engine_classifications (id, workflow_id, data) SELECT * FROM unnest($1::int[], $2::int[], $3::jsonb[])
       ON CONFLICT (workflow_id, id) DO UPDATE SET data = excluded.data, received_at = now()`,
      [unique.map((c) => c.id), unique.map((c) => c.workflow_id), unique.map((c) => JSON.stringify(c))],
    );
    await handToEngine(
      client,
      unique.map((c) => ({ id: c.id, workflowId: c.workflow_id })),
    );
  });
  return json({ queued: items.length }, 202);
});
