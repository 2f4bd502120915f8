// GET/PUT/DELETE /api/subjects/<id>/attached_images/<medium id>: one attached image (lib/resources/media.ts).
import { mediumRoutes } from "@/lib/resources/media";
import { subjects } from "@/lib/resources/subjects";

export const { GET, PUT, DELETE } = mediumRoutes(subjects, "attached_images");
