// POST /api/project_preferences/update_settings: a user's designator chances or workflow_id on a project.
import { updateProjectPreferenceSettings } from "@/lib/domain/update-project-preference-settings";

export const POST = updateProjectPreferenceSettings;
