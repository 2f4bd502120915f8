// POST /api/workflows/<id>/links/<link>: add linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(workflows);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
