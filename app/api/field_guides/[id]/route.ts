// GET/PUT/DELETE /api/field_guides/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { fieldGuides } from "@/lib/resources/field-guides";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(fieldGuides);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
