// GET /api/subject_workflow_statuses/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { subjectWorkflowStatuses } from "@/lib/resources/subject-workflow-statuses";

export const { GET } = memberRoutes(subjectWorkflowStatuses);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
