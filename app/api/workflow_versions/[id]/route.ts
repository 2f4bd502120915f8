// GET /api/workflow_versions/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { workflowVersions } from "@/lib/resources/workflow-versions";

export const { GET } = memberRoutes(workflowVersions);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
