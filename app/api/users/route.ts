// GET /api/users: users (public fields; all fields for oneself and admins).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { users } from "@/lib/resources/users";

export const { GET } = collectionRoutes(users);
