// GET/POST/PUT/DELETE /api/organizations/<id>/background: the organization's background (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(organizations, "background");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
