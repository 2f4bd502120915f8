// DELETE /api/projects/<id>/links/<link>/<ids>: remove comma-separated ids from a writable link.
import { linkRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";

export const { DELETE } = linkRoutes(projects);
