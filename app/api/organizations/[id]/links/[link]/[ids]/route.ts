// DELETE /api/organizations/<id>/links/projects/<ids>: unlink comma-separated project ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { DELETE } = linkRoutes(organizations);

export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
