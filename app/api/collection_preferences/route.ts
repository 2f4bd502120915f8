// GET/POST /api/collection_preferences: a user's preferences on collections (visible only to that user).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { collectionPreferences } from "@/lib/resources/collection-preferences";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(collectionPreferences);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
