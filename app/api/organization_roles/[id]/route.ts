// GET/PUT/DELETE /api/organization_roles/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { organizationRoles } from "@/lib/resources/organization-roles";

export const { GET, PUT, DELETE } = memberRoutes(organizationRoles);
