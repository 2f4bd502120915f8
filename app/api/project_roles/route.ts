// GET/POST /api/project_roles: roles on projects (visible to the holder and the project's editors).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projectRoles } from "@/lib/resources/project-roles";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(projectRoles);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
