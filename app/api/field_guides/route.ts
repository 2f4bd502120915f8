// GET/POST /api/field_guides: list (English guides unless `language` is given) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { fieldGuides } from "@/lib/resources/field-guides";

export const { GET, POST } = collectionRoutes(fieldGuides);
