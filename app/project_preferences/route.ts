// GET /project_preferences: the documented path without /api; the same list as /api/project_preferences.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projectPreferences } from "@/lib/resources/project-preferences";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(projectPreferences);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
