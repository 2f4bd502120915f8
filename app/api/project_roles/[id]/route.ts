// GET/PUT/DELETE /api/project_roles/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { projectRoles } from "@/lib/resources/project-roles";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(projectRoles);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
