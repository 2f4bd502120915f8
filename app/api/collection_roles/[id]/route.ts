// GET/PUT/DELETE /api/collection_roles/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { collectionRoles } from "@/lib/resources/collection-roles";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(collectionRoles);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
