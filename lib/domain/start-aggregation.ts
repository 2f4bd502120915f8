import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { Aggregation } from "@/lib/generated/prisma/client";
import { AppError, forbidden, notFound, unprocessable } from "@/lib/errors";
import { OutboundError, outboundFetch, type OutboundResponse } from "@/lib/net/outbound-fetch";
import { parseIdValue } from "@/lib/text/params";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import type { Tx } from "@/lib/db/types";
import { trimTrailingSlashes } from "@/lib/text/trim-slashes";

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
export const ZCreateAggregation = z.strictObject({ links: z.strictObject({ user: ZId, workflow: ZId }) });

/** Why the aggregation service did not take a run, in words for the project's editors. */
export class AggregationServiceError extends Error {}

export interface AggregationRunRequest {
  project_id: number;
  workflow_id: number;
  user_id: number;
}

/** Asks the service at `baseUrl` to run an aggregation; resolves to the task id it answers with. */
export async function requestAggregationRun(
  baseUrl: string,
  run: AggregationRunRequest,
  timeoutMs = AGGREGATION_SERVICE_TIMEOUT_MS,
): Promise<string> {
  let target: URL;
  try {
    target = new URL(`${trimTrailingSlashes(baseUrl)}/run_aggregation`);
  } catch {
    throw new AggregationServiceError(`AGGREGATION_SERVICE_URL is not a URL: ${baseUrl}`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new AggregationServiceError(`AGGREGATION_SERVICE_URL must be an http(s) URL: ${baseUrl}`);
  }
  // Through the outbound guard like every URL the server is given: an aggregation service on a private
  // or loopback address is reached only when the operator allows it (OUTBOUND_ALLOW_HOSTS). One deadline
  // covers connecting, sending and reading the whole answer; a redirect is not followed.
  let res: OutboundResponse;
  try {
    res = await outboundFetch(target, {
      method: "POST",
      body: Buffer.from(JSON.stringify(run)),
      headers: { "content-type": "application/json", accept: "application/json" },
      timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      maxRedirects: 0,
    });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    if (err.kind === "timeout") throw new AggregationServiceError(`The aggregation service did not answer within ${timeoutMs / 1000} s`);
    if (err.kind === "too-large") throw new AggregationServiceError("The aggregation service answered with more than 1 MiB");
    const hint = err.kind === "refused" ? " (OUTBOUND_ALLOW_HOSTS can allow it)" : "";
    throw new AggregationServiceError(`The aggregation service could not be reached: ${err.message}${hint}`);
  }
  const status = res.status;
  // The status alone goes on the run, which the project's editors read; the body, for the operator, to the log.
  if (status < 200 || status > 299) {
    const text = res.body.toString("utf8").trim().replace(/\s+/g, " ");
    if (text) console.warn(`[aggregation] the service answered ${status}: ${text.slice(0, 200)}`);
    throw new AggregationServiceError(`The aggregation service answered ${status}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString("utf8"));
  } catch {
    throw new AggregationServiceError(`The aggregation service answered ${status} with a body that is not JSON`);
  }
  const taskId = (body as { task_id?: unknown } | null)?.task_id;
  if ((typeof taskId !== "string" && typeof taskId !== "number") || String(taskId) === "") {
    throw new AggregationServiceError(`The aggregation service answered ${status} without a task_id`);
  }
  return String(taskId);
}

/** Records the run (`created`) for a workflow whose project the actor edits; one run per user and workflow. */
export async function recordRun(
  tx: Tx,
  actor: Actor & { user: NonNullable<Actor["user"]> },
  input: z.infer<typeof ZCreateAggregation>,
  error: string | null,
): Promise<Aggregation> {
  const workflowId = parseIdValue(input.links.workflow, "links.workflow");
  const userId = parseIdValue(input.links.user, "links.user");
  const workflow = await tx.workflow.findFirst({
    where: { id: workflowId, project: projectReadScope(actor) },
    select: { projectId: true },
  });
  if (!workflow) throw notFound(`Could not find workflows with id='${workflowId}'`);
  if (!(await canOnProject(actor, "update", workflow.projectId, tx)))
    throw forbidden("Only the project's owner and collaborators may run aggregations of its workflows");
  if (userId !== actor.user.id) {
    if (!actor.user.admin) throw forbidden("links.user must be the current user");
    if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } })))
      throw unprocessable(`links.user: no user with id ${userId}`);
  }
  const existing = await tx.aggregation.findUnique({ where: { workflowId_userId: { workflowId, userId } }, select: { id: true } });
  const taken = (id?: number) =>
    new AppError(
      "bad_request",
      `This user already has an aggregation run of workflow ${workflowId}${id ? ` (aggregations/${id})` : ""}; delete it before starting another`,
    );
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
export async function dispatchRun(run: Aggregation, serviceUrl: string): Promise<void> {
  try {
    const taskId = await requestAggregationRun(serviceUrl, { project_id: run.projectId, workflow_id: run.workflowId, user_id: run.userId });
    // The service may already have reported back (PUT) before its answer reached us: only a run still
    // `created` becomes `pending`.
    const moved = await db().aggregation.updateMany({
      where: { id: run.id, status: "created" },
      data: { taskId, status: "pending", error: null },
    });
    if (!moved.count) await db().aggregation.updateMany({ where: { id: run.id, taskId: null }, data: { taskId } });
  } catch (err) {
    if (!(err instanceof AggregationServiceError)) throw err;
    await db().aggregation.updateMany({ where: { id: run.id }, data: { error: err.message } });
  }
}
