// GET/POST /api/collection_roles: roles on collections (visible to the holder and the collection's editors).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { collectionRoles } from "@/lib/resources/collection-roles";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(collectionRoles);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
