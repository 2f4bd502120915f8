// GET/PUT/DELETE /api/projects/<id>: show, edit (If-Match), destroy (If-Match).
import { memberRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";

export const { GET, PUT, DELETE } = memberRoutes(projects);
