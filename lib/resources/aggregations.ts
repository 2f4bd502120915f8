import { z } from "zod";
import type { Aggregation } from "@/lib/generated/prisma/client";
import { unprocessable } from "@/lib/errors";
import { parseIdList } from "@/lib/text/params";
import { canOnProject, projectActionScope } from "@/lib/policies/project-policy";
import type { ResourceDef } from "@/lib/http/resource-def";
import { iso } from "./wire";

// Aggregation runs (/api/aggregations): one per user and workflow, performed by the external aggregation
// service. Seen, edited and deleted by the editors of the workflow's project (and admins); the service
// reports back with an editor's or admin's token (PUT uuid/status). Creating one also asks the service to
// start it: lib/domain/start-aggregation.ts.

export const AGGREGATION_STATUSES = ["created", "pending", "completed", "failed"] as const;

const ZUpdateAggregation = z
  .strictObject({
    uuid: z.string().regex(/^[0-9a-f]{32}$/, "uuid must be 32 lowercase hexadecimal characters"),
    status: z.enum(AGGREGATION_STATUSES, { message: `status must be one of ${AGGREGATION_STATUSES.join(", ")}` }),
  })
  .partial()
  .refine((v) => v.uuid !== undefined || v.status !== undefined, "Send uuid and/or status");

/**
 * Where a completed run's results are downloaded: AGGREGATION_RESULTS_URL with `{uuid}`, `{workflow_id}` and
 * `{project_id}` filled in (the service's storage, e.g. `https://store.example.org/{uuid}/{workflow_id}_aggregation.zip`),
 * or null when it is unset or the run has no output yet.
 */
export function aggregationResultsUrl(a: Pick<Aggregation, "uuid" | "status" | "workflowId" | "projectId">): string | null {
  const template = process.env.AGGREGATION_RESULTS_URL?.trim();
  if (!template || a.status !== "completed" || !a.uuid) return null;
  return template
    .replaceAll("{uuid}", a.uuid)
    .replaceAll("{workflow_id}", String(a.workflowId))
    .replaceAll("{project_id}", String(a.projectId));
}

export function serializeAggregation(a: Aggregation) {
  return {
    id: String(a.id),
    workflow_id: String(a.workflowId),
    project_id: String(a.projectId),
    user_id: String(a.userId),
    uuid: a.uuid,
    task_id: a.taskId,
    status: a.status,
    results_url: aggregationResultsUrl(a),
    // Why the run is not under way (the service is not configured, or refused or failed the request).
    error: a.error,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
    href: `/aggregations/${a.id}`,
    links: { workflow: String(a.workflowId), project: String(a.projectId), user: String(a.userId) },
  };
}

export const aggregations: ResourceDef<Aggregation> = {
  type: "aggregations",
  table: "aggregations",
  model: "aggregation",
  tokenScopes: { read: "none", write: "project" },
  serialize: serializeAggregation,
  linkTemplates: {
    workflow: { href: "/workflows/{aggregations.workflow}", type: "workflows" },
    project: { href: "/projects/{aggregations.project}", type: "projects" },
    user: { href: "/users/{aggregations.user}", type: "users" },
  },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    workflow_id: (v) => ({ workflowId: { in: parseIdList(v, "workflow_id") } }),
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  defaultSort: "updated_at",
  readScope: (actor) => (actor.user?.admin ? {} : { project: projectActionScope(actor, "update") }),
  can: (actor, action, row, tx) => (action === "show" ? true : canOnProject(actor, action, row.projectId, tx)),
  update: {
    schema: ZUpdateAggregation,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdateAggregation>) => {
      const uuid = input.uuid ?? row.uuid;
      if (input.status === "completed" && !uuid)
        throw unprocessable("status completed requires a uuid (the run's output id): send it with the status");
      // A run the service has taken or finished is no longer held up by an earlier error.
      const error = input.status === "pending" || input.status === "completed" ? null : undefined;
      await tx.aggregation.update({
        where: { id: row.id },
        data: { uuid: input.uuid, status: input.status, error, updatedAt: new Date() },
      });
    },
  },
  destroy: async ({ tx }, row) => {
    await tx.aggregation.delete({ where: { id: row.id } });
  },
};
