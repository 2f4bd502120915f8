// GET/POST /api/project_roles: roles on projects (visible to the holder and the project's editors).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projectRoles } from "@/lib/resources/project-roles";

export const { GET, POST } = collectionRoutes(projectRoles);
