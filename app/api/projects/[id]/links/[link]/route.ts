// POST /api/projects/<id>/links/<link>: add ids to a writable link.
import { linkRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(projects);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
