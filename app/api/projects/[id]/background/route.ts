// GET/POST/PUT/DELETE /api/projects/<id>/background: the record's background (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(projects, "background");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
