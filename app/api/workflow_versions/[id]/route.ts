// GET /api/workflow_versions/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { workflowVersions } from "@/lib/resources/workflow-versions";

export const { GET } = memberRoutes(workflowVersions);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
