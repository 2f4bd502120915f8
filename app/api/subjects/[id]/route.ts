// GET/PUT/DELETE /api/subjects/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { subjects } from "@/lib/resources/subjects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(subjects);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
