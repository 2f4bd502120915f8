// GET/PUT/DELETE /api/workflows/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(workflows);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
