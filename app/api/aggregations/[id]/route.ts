// GET/PUT/DELETE /api/aggregations/<id>: one run (PUT: the service reports uuid and status; DELETE: the project's editors).
import { memberRoutes } from "@/lib/http/resource-routes";
import { aggregations } from "@/lib/resources/aggregations";

export const { GET, PUT, DELETE } = memberRoutes(aggregations);
