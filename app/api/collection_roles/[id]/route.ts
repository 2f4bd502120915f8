// GET/PUT/DELETE /api/collection_roles/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { collectionRoles } from "@/lib/resources/collection-roles";

export const { GET, PUT, DELETE } = memberRoutes(collectionRoles);
