// GET/POST/PUT/DELETE /api/projects/<id>/avatar: the record's avatar (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(projects, "avatar");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
