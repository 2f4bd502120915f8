// GET/PUT/DELETE /api/tutorials/<id>/attached_images/<medium id>: one attached image.
import { mediumRoutes } from "@/lib/resources/media";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = mediumRoutes(tutorials, "attached_images");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
