// GET /project_preferences: the documented path without /api; the same list as /api/project_preferences.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projectPreferences } from "@/lib/resources/project-preferences";

export const { GET } = collectionRoutes(projectPreferences);
