// DELETE /api/projects/<id>/links/<link>/<ids>: remove comma-separated ids from a writable link.
import { linkRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { DELETE } = linkRoutes(projects);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
