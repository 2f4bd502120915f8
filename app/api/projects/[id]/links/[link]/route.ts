// POST /api/projects/<id>/links/<link>: add ids to a writable link.
import { linkRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";

export const { POST } = linkRoutes(projects);
