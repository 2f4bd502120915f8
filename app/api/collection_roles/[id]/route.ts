// GET/PUT/DELETE /api/collection_roles/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { collectionRoles } from "@/lib/resources/collection-roles";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(collectionRoles);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
