import type { WorkflowVersion } from "@/lib/generated/prisma/client";
import { parseIdList } from "@/lib/text/params";
import { projectReadScope } from "@/lib/policies/project-policy";
import type { ResourceDef } from "@/lib/http/resource-def";
import { iso } from "./wire";

// /api/workflow_versions as the established platform (read only): a workflow's tasks, first task and
// strings at each of its versions. Visible with the workflow's project.
export const workflowVersions: ResourceDef<WorkflowVersion> = {
  type: "workflow_versions",
  table: "workflow_versions",
  model: "workflowVersion",
  tokenScopes: { read: "project", write: "project" },
  serialize: (v) => ({
    id: String(v.id),
    href: `/workflow_versions/${v.id}`,
    major_number: v.majorNumber,
    minor_number: v.minorNumber,
    first_task: v.firstTask,
    tasks: v.tasks,
    strings: v.strings,
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
    links: { workflow: String(v.workflowId) },
  }),
  linkTemplates: { workflow: { href: "/workflows/{workflow_versions.workflow}", type: "workflows" } },
  filters: { workflow_id: (v) => ({ workflowId: { in: parseIdList(v, "workflow_id") } }) },
  sortable: { id: "id", created_at: "createdAt", major_number: "majorNumber", minor_number: "minorNumber" },
  readScope: (actor) => ({ workflow: { project: projectReadScope(actor) } }),
  can: (_actor, action) => action === "show",
};
