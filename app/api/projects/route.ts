// GET/POST /api/projects: list (filters display_name, approved, beta, live, owner, organization_id) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(projects);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
