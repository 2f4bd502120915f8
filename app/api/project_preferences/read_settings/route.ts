// GET /api/project_preferences/read_settings?project_id=[&user_id=]: a project's editors read its
// volunteers' settings (workflow_id, designator chances), as the Python client's
// ProjectPreferences.fetch_settings does. Only `settings` is shown: a volunteer's own preferences stay theirs.
import { readProjectPreferenceSettings } from "@/lib/handlers/read-project-preference-settings";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = readProjectPreferenceSettings;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
