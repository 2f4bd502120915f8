// GET/POST /api/organization_roles: roles on organizations (visible to the holder and the organization's editors).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { organizationRoles } from "@/lib/resources/organization-roles";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(organizationRoles);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
