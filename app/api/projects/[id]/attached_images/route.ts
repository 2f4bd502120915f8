// GET/POST /api/projects/<id>/attached_images: the project's attached images (PUT/DELETE name one: 405).
import { mediaRoutes } from "@/lib/resources/media";
import { projects } from "@/lib/resources/projects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(projects, "attached_images");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
