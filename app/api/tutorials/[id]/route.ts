// GET/PUT/DELETE /api/tutorials/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(tutorials);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
