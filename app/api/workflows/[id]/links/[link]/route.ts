// POST /api/workflows/<id>/links/<link>: add linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";

export const { POST } = linkRoutes(workflows);
