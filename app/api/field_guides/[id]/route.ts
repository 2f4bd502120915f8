// GET/PUT/DELETE /api/field_guides/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { fieldGuides } from "@/lib/resources/field-guides";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(fieldGuides);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
