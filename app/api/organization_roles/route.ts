// GET/POST /api/organization_roles: roles on organizations (visible to the holder and the organization's editors).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { organizationRoles } from "@/lib/resources/organization-roles";

export const { GET, POST } = collectionRoutes(organizationRoles);
