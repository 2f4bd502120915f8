// GET/POST /api/tutorials/<id>/attached_images: the images its items show (PUT/DELETE name one: 405).
import { mediaRoutes } from "@/lib/resources/media";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(tutorials, "attached_images");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
