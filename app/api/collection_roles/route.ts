// GET/POST /api/collection_roles: roles on collections (visible to the holder and the collection's editors).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { collectionRoles } from "@/lib/resources/collection-roles";

export const { GET, POST } = collectionRoutes(collectionRoles);
