// GET/PUT/DELETE /api/field_guides/<id>/attached_images/<medium id>: one attached image.
import { mediumRoutes } from "@/lib/resources/media";
import { fieldGuides } from "@/lib/resources/field-guides";

export const { GET, PUT, DELETE } = mediumRoutes(fieldGuides, "attached_images");
