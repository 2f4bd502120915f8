// GET/POST /api/project_preferences: the caller's preferences (filters user_id, project_id) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projectPreferences } from "@/lib/resources/project-preferences";

export const { GET, POST } = collectionRoutes(projectPreferences);
