// GET/POST /api/project_preferences: the caller's preferences (filters user_id, project_id) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projectPreferences } from "@/lib/resources/project-preferences";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(projectPreferences);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
