// GET /api/workflow_versions (filter workflow_id): workflows' contents at each version (read only).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { workflowVersions } from "@/lib/resources/workflow-versions";

export const { GET } = collectionRoutes(workflowVersions);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
