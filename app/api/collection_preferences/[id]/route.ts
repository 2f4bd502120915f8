// GET/PUT /api/collection_preferences/<id> (edits: the owning user only).
import { memberRoutes } from "@/lib/http/resource-routes";
import { collectionPreferences } from "@/lib/resources/collection-preferences";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT } = memberRoutes(collectionPreferences);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "PUT"]);
