// POST /api/project_preferencess?user_id=&project_id=: the contract's spelling of update_settings.
import { updateProjectPreferenceSettings } from "@/lib/handlers/update-project-preference-settings";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = updateProjectPreferenceSettings;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
