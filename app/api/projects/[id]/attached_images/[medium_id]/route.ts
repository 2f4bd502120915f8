// GET/PUT/DELETE /api/projects/<id>/attached_images/<medium id>: one attached image (lib/resources/media.ts).
import { mediumRoutes } from "@/lib/resources/media";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = mediumRoutes(projects, "attached_images");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
