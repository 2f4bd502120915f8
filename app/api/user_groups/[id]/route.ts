// GET/PUT/DELETE /api/user_groups/<id>: a group (edit and delete: its group admins).
import { memberRoutes } from "@/lib/http/resource-routes";
import { userGroups } from "@/lib/resources/user-groups";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(userGroups);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
