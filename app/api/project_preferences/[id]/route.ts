// GET/PUT /api/project_preferences/<id>: show (owner only) and edit (owner: preferences; project editors: settings).
import { memberRoutes } from "@/lib/http/resource-routes";
import { projectPreferences } from "@/lib/resources/project-preferences";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT } = memberRoutes(projectPreferences);

export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "PUT"]);
