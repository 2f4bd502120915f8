// GET /api/workflow_versions (filter workflow_id): workflows' contents at each version (read only).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { workflowVersions } from "@/lib/resources/workflow-versions";

export const { GET } = collectionRoutes(workflowVersions);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
