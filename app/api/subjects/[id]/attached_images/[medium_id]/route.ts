// GET/PUT/DELETE /api/subjects/<id>/attached_images/<medium id>: one attached image (lib/resources/media.ts).
import { mediumRoutes } from "@/lib/resources/media";
import { subjects } from "@/lib/resources/subjects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = mediumRoutes(subjects, "attached_images");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
