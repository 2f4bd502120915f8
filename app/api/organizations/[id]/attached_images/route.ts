// GET/POST /api/organizations/<id>/attached_images: the organization's attached images (PUT/DELETE name one: 405).
import { mediaRoutes } from "@/lib/resources/media";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(organizations, "attached_images");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
