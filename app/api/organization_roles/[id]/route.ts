// GET/PUT/DELETE /api/organization_roles/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { organizationRoles } from "@/lib/resources/organization-roles";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(organizationRoles);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
