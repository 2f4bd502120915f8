// DELETE /api/workflows/<id>/links/<link>/<ids>: remove linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";

export const { DELETE } = linkRoutes(workflows);
