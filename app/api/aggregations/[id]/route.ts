// GET/PUT/DELETE /api/aggregations/<id>: one run (PUT: the service reports uuid and status; DELETE: the project's editors).
import { memberRoutes } from "@/lib/http/resource-routes";
import { aggregations } from "@/lib/resources/aggregations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(aggregations);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
