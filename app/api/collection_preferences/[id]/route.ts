// GET/PUT /api/collection_preferences/<id> (edits: the owning user only).
import { memberRoutes } from "@/lib/http/resource-routes";
import { collectionPreferences } from "@/lib/resources/collection-preferences";

export const { GET, PUT } = memberRoutes(collectionPreferences);
