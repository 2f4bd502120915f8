// GET/POST/PUT/DELETE /api/users/<id>/profile_header: the record's profile_header (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { users } from "@/lib/resources/users";

export const { GET, POST, PUT, DELETE } = mediaRoutes(users, "profile_header");
