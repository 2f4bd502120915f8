// POST /api/projects/<id>/links/<link>: add ids to a writable link.
import { linkRoutes } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(projects);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
