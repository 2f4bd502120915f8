// GET/POST/PUT/DELETE /api/users/<id>/profile_header: the record's profile_header (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { users } from "@/lib/resources/users";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(users, "profile_header");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
