// GET/POST /api/subjects/<id>/attached_images: a subject's attached images (PUT/DELETE name one: 405).
import { mediaRoutes } from "@/lib/resources/media";
import { subjects } from "@/lib/resources/subjects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(subjects, "attached_images");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
