import type { SubjectWorkflowStatus } from "@/lib/generated/prisma/client";
import { parseBooleanParam, parseIdList } from "@/lib/text/params";
import { projectReadScope } from "@/lib/policies/project-policy";
import type { ResourceDef } from "@/lib/http/resource-def";
import { iso } from "./wire";

// A subject's state in a workflow, as the established platform's /subject_workflow_statuses (read only):
// how often it was classified there, and when and why it retired. Visible with the workflow's project.

export function serializeSubjectWorkflowStatus(s: SubjectWorkflowStatus) {
  return {
    id: String(s.id),
    classifications_count: s.classificationsCount,
    retired_at: s.retiredAt ? iso(s.retiredAt) : null,
    retirement_reason: s.retirementReason,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    href: `/subject_workflow_statuses/${s.id}`,
    links: { subject: String(s.subjectId), workflow: String(s.workflowId) },
  };
}

export const subjectWorkflowStatuses: ResourceDef<SubjectWorkflowStatus> = {
  type: "subject_workflow_statuses",
  table: "subject_workflow_statuses",
  model: "subjectWorkflowStatus",
  tokenScopes: { read: "none", write: "project" },
  serialize: serializeSubjectWorkflowStatus,
  linkTemplates: {
    subject: { href: "/subjects/{subject_workflow_statuses.subject}", type: "subjects" },
    workflow: { href: "/workflows/{subject_workflow_statuses.workflow}", type: "workflows" },
  },
  filters: {
    workflow_id: (v) => ({ workflowId: { in: parseIdList(v, "workflow_id") } }),
    subject_id: (v) => ({ subjectId: { in: parseIdList(v, "subject_id") } }),
    // The Python client's SubjectSet.subject_workflow_statuses sends `subject_ids` joined by ", ".
    subject_ids: (v) => ({ subjectId: { in: parseIdList(v, "subject_ids") } }),
    retired: (v) => (parseBooleanParam(v, "retired") ? { retiredAt: { not: null } } : { retiredAt: null }),
  },
  sortable: {
    id: "id",
    classifications_count: "classificationsCount",
    retired_at: "retiredAt",
    created_at: "createdAt",
    updated_at: "updatedAt",
  },
  readScope: (actor) => ({ workflow: { project: projectReadScope(actor) } }),
  can: (_actor, action) => action === "show",
};
