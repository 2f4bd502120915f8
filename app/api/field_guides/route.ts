// GET/POST /api/field_guides: list (English guides unless `language` is given) and create.
import { collectionRoutesWithDefaults } from "@/lib/resources/project-content";
import { FIELD_GUIDE_LIST_DEFAULTS, fieldGuides } from "@/lib/resources/field-guides";

export const { GET, POST } = collectionRoutesWithDefaults(fieldGuides, FIELD_GUIDE_LIST_DEFAULTS);
