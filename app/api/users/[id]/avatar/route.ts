// GET/POST/PUT/DELETE /api/users/<id>/avatar: the record's avatar (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { users } from "@/lib/resources/users";

export const { GET, POST, PUT, DELETE } = mediaRoutes(users, "avatar");
