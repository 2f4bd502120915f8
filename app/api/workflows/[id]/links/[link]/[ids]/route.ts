// DELETE /api/workflows/<id>/links/<link>/<ids>: remove linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { DELETE } = linkRoutes(workflows);

export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
