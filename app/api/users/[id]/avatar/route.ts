// GET/POST/PUT/DELETE /api/users/<id>/avatar: the record's avatar (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { users } from "@/lib/resources/users";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, DELETE } = mediaRoutes(users, "avatar");

export const { PATCH, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT", "DELETE"]);
