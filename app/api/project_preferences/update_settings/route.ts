// POST /api/project_preferences/update_settings: a user's designator chances or workflow_id on a project.
import { updateProjectPreferenceSettings } from "@/lib/handlers/update-project-preference-settings";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = updateProjectPreferenceSettings;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
