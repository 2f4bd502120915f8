// GET /api/subject_workflow_statuses/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { subjectWorkflowStatuses } from "@/lib/resources/subject-workflow-statuses";

export const { GET } = memberRoutes(subjectWorkflowStatuses);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
