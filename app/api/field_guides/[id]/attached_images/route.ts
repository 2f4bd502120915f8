// GET/POST /api/field_guides/<id>/attached_images: the images its items show (PUT/DELETE name one: 405).
import { mediaRoutes } from "@/lib/resources/media";
import { fieldGuides } from "@/lib/resources/field-guides";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(fieldGuides, "attached_images");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
