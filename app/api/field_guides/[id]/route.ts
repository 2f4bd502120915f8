// GET/PUT/DELETE /api/field_guides/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { fieldGuides } from "@/lib/resources/field-guides";

export const { GET, PUT, DELETE } = memberRoutes(fieldGuides);
