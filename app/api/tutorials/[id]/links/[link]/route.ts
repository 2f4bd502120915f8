// POST /api/tutorials/<id>/links/workflows {"workflows": [ids]}: link workflows of the tutorial's project.
import { linkRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(tutorials);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
