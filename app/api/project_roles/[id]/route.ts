// GET/PUT/DELETE /api/project_roles/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { projectRoles } from "@/lib/resources/project-roles";

export const { GET, PUT, DELETE } = memberRoutes(projectRoles);
