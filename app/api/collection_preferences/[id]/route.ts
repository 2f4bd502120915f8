// GET/PUT /api/collection_preferences/<id> (edits: the owning user only).
import { memberRoutes } from "@/lib/http/resource-routes";
import { collectionPreferences } from "@/lib/resources/collection-preferences";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT } = memberRoutes(collectionPreferences);

export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "PUT"]);
