// POST /api/project_preferencess?user_id=&project_id=: the contract's spelling of update_settings.
import { updateProjectPreferenceSettings } from "@/lib/domain/update-project-preference-settings";

export const POST = updateProjectPreferenceSettings;
