// GET /api/users: users (public fields; all fields for oneself and admins).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { users } from "@/lib/resources/users";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(users);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
