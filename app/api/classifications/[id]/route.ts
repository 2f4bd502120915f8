// GET/PUT/DELETE /api/classifications/<id> (PUT and DELETE only while incomplete).
import { memberRoutes } from "@/lib/http/resource-routes";
import { classifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(classifications);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
