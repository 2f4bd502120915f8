// GET/PUT/DELETE /api/projects/<id>: show, edit (If-Match), destroy (If-Match).
import { memberRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(projects);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
