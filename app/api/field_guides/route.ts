// GET/POST /api/field_guides: list (English guides unless `language` is given) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { fieldGuides } from "@/lib/resources/field-guides";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(fieldGuides);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
