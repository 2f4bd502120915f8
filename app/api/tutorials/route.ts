// GET/POST /api/tutorials: list (English tutorials unless `language` is given; workflow_id, kind) and create.
import { collectionRoutesWithDefaults } from "@/lib/resources/project-content";
import { TUTORIAL_LIST_DEFAULTS, tutorials } from "@/lib/resources/tutorials";

export const { GET, POST } = collectionRoutesWithDefaults(tutorials, TUTORIAL_LIST_DEFAULTS);
