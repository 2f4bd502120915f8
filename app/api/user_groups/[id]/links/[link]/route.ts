// POST /api/user_groups/<id>/links/users: invite users to the group (group admins).
import { linkRoutes } from "@/lib/http/resource-routes";
import { userGroups } from "@/lib/resources/user-groups";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(userGroups);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
