// GET /api/subject_workflow_statuses: subjects' states in workflows (read only).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { subjectWorkflowStatuses } from "@/lib/resources/subject-workflow-statuses";

export const { GET } = collectionRoutes(subjectWorkflowStatuses);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
