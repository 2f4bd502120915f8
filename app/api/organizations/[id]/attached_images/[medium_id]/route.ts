// GET/PUT/DELETE /api/organizations/<id>/attached_images/<medium id>: one attached image (lib/resources/media.ts).
import { mediumRoutes } from "@/lib/resources/media";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = mediumRoutes(organizations, "attached_images");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
