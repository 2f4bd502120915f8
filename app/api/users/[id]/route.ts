// GET/PUT /api/users/<id>: one user; a user edits their own profile.
import { memberRoutes } from "@/lib/http/resource-routes";
import { users } from "@/lib/resources/users";

export const { GET, PUT } = memberRoutes(users);
