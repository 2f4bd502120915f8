// GET/PUT/DELETE /api/classifications/<id> (PUT and DELETE only while incomplete).
import { memberRoutes } from "@/lib/http/resource-routes";
import { classifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(classifications);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
