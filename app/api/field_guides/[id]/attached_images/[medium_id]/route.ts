// GET/PUT/DELETE /api/field_guides/<id>/attached_images/<medium id>: one attached image.
import { mediumRoutes } from "@/lib/resources/media";
import { fieldGuides } from "@/lib/resources/field-guides";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = mediumRoutes(fieldGuides, "attached_images");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
