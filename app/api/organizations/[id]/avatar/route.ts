// GET/POST/PUT/DELETE /api/organizations/<id>/avatar: the organization's avatar (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(organizations, "avatar");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
