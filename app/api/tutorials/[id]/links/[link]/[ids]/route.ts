// DELETE /api/tutorials/<id>/links/workflows/<ids>: unlink workflows.
import { linkRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { DELETE } = linkRoutes(tutorials);

export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
