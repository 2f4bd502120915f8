// DELETE /api/projects/<id>/links/<link>/<ids>: remove comma-separated ids from a writable link.
import { linkRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { DELETE } = linkRoutes(projects);

export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
