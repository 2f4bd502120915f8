import http from "node:http";
import https from "node:https";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { Aggregation } from "@/lib/generated/prisma/client";
import { apiRoute } from "@/lib/http/api-route";
import { ApiError, forbidden, notFound, unprocessable } from "@/lib/http/api-error";
import { parseIdValue } from "@/lib/http/request";
import { findVisible, recordBody, requireWriter, showResponse } from "@/lib/http/resource-routes";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { aggregations } from "@/lib/resources/aggregations";
import type { Tx } from "@/lib/resources/types";

// Starting an aggregation run (POST /api/aggregations): the run is recorded `created` in a transaction;
// then, outside it, the external aggregation service (AGGREGATION_SERVICE_URL) is asked to run it, as the
// reference platform's AggregationClient does: POST <service>/run_aggregation with
// {project_id, workflow_id, user_id}, answered with {task_id}. A run the service took is `pending` with
// its task id; one it could not take stays `created` with the reason in `error`, and the answer is still
// the 201 with the record (the run exists; the client deletes it to try again).

export const AGGREGATION_SERVICE_TIMEOUT_MS = 10_000;
export const NO_AGGREGATION_SERVICE = "No aggregation service is configured (AGGREGATION_SERVICE_URL)";
const MAX_ANSWER_BYTES = 1024 * 1024;

const ZId = z.union([z.string(), z.number()]);
const ZCreateAggregation = z.strictObject({ links: z.strictObject({ user: ZId, workflow: ZId }) });

/** Why the aggregation service did not take a run, in words for the project's editors. */
export class AggregationServiceError extends Error {}

export interface AggregationRunRequest {
  project_id: number;
  workflow_id: number;
  user_id: number;
}

const excerpt = (text: string) => {
  const t = text.trim().replace(/\s+/g, " ");
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
};

/** Asks the service at `baseUrl` to run an aggregation; resolves to the task id it answers with. */
export function requestAggregationRun(baseUrl: string, run: AggregationRunRequest, timeoutMs = AGGREGATION_SERVICE_TIMEOUT_MS): Promise<string> {
  let target: URL;
  try {
    target = new URL(`${baseUrl.replace(/\/+$/, "")}/run_aggregation`);
  } catch {
    return Promise.reject(new AggregationServiceError(`AGGREGATION_SERVICE_URL is not a URL: ${baseUrl}`));
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return Promise.reject(new AggregationServiceError(`AGGREGATION_SERVICE_URL must be an http(s) URL: ${baseUrl}`));
  }
  const payload = Buffer.from(JSON.stringify(run));
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json", "content-length": payload.length } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new AggregationServiceError("The aggregation service answered with more than 1 MiB"));
          else chunks.push(chunk);
        });
        res.on("error", (e) => reject(e instanceof AggregationServiceError ? e : new AggregationServiceError(`The aggregation service's answer broke off: ${e.message}`)));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString("utf8");
          if (status < 200 || status > 299) return reject(new AggregationServiceError(`The aggregation service answered ${status}${text.trim() ? `: ${excerpt(text)}` : ""}`));
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            return reject(new AggregationServiceError(`The aggregation service answered ${status} with a body that is not JSON`));
          }
          const taskId = (body as { task_id?: unknown } | null)?.task_id;
          if ((typeof taskId !== "string" && typeof taskId !== "number") || String(taskId) === "") {
            return reject(new AggregationServiceError(`The aggregation service answered ${status} without a task_id`));
          }
          resolve(String(taskId));
        });
      },
    );
    // One deadline for connecting, sending and reading the whole answer.
    const timer = setTimeout(() => req.destroy(new AggregationServiceError(`The aggregation service did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("error", (e) => reject(e instanceof AggregationServiceError ? e : new AggregationServiceError(`The aggregation service could not be reached: ${e.message}`)));
    req.end(payload);
  });
}

/** Records the run (`created`) for a workflow whose project the actor edits; one run per user and workflow. */
async function recordRun(tx: Tx, actor: Actor & { user: NonNullable<Actor["user"]> }, input: z.infer<typeof ZCreateAggregation>, error: string | null): Promise<Aggregation> {
  const workflowId = parseIdValue(input.links.workflow, "links.workflow");
  const userId = parseIdValue(input.links.user, "links.user");
  const workflow = await tx.workflow.findFirst({ where: { id: workflowId, project: projectReadScope(actor) }, select: { projectId: true } });
  if (!workflow) throw notFound(`Could not find workflows with id='${workflowId}'`);
  if (!(await canOnProject(actor, "update", workflow.projectId, tx))) throw forbidden("Only the project's owner and collaborators may run aggregations of its workflows");
  if (userId !== actor.user.id) {
    if (!actor.user.admin) throw forbidden("links.user must be the current user");
    if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw unprocessable(`links.user: no user with id ${userId}`);
  }
  const existing = await tx.aggregation.findUnique({ where: { workflowId_userId: { workflowId, userId } }, select: { id: true } });
  const taken = (id?: number) =>
    new ApiError(400, `This user already has an aggregation run of workflow ${workflowId}${id ? ` (aggregations/${id})` : ""}; delete it before starting another`);
  if (existing) throw taken(existing.id);
  try {
    return await tx.aggregation.create({ data: { workflowId, projectId: workflow.projectId, userId, status: "created", error } });
  } catch (err) {
    // A concurrent request recorded the same run first.
    if ((err as { code?: string })?.code === "P2002") throw taken();
    throw err;
  }
}

/** Hands a recorded run to the service; its answer (task id, or why not) is stored on the run. */
async function dispatchRun(run: Aggregation, serviceUrl: string): Promise<void> {
  try {
    const taskId = await requestAggregationRun(serviceUrl, { project_id: run.projectId, workflow_id: run.workflowId, user_id: run.userId });
    // The service may already have reported back (PUT) before its answer reached us: only a run still
    // `created` becomes `pending`.
    const moved = await db().aggregation.updateMany({ where: { id: run.id, status: "created" }, data: { taskId, status: "pending", error: null } });
    if (!moved.count) await db().aggregation.updateMany({ where: { id: run.id, taskId: null }, data: { taskId } });
  } catch (err) {
    if (!(err instanceof AggregationServiceError)) throw err;
    await db().aggregation.updateMany({ where: { id: run.id }, data: { error: err.message } });
  }
}

/** POST /api/aggregations: record the run, then start it on the service (outside the transaction). */
export const startAggregationRoute = apiRoute(async (ctx) => {
  const actor = await ctx.actor();
  requireWriter(actor, aggregations);
  const input = ZCreateAggregation.parse(await recordBody(ctx, aggregations.type));
  const serviceUrl = process.env.AGGREGATION_SERVICE_URL?.trim() || null;
  const run = await db().$transaction((tx) => recordRun(tx, actor, input, serviceUrl ? null : NO_AGGREGATION_SERVICE), { timeout: 15_000 });
  if (serviceUrl) await dispatchRun(run, serviceUrl);
  return showResponse(aggregations, await findVisible(aggregations, run.id, actor), ctx, 201);
});
