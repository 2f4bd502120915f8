// POST /api/user_groups/<id>/links/users: invite users to the group (group admins).
import { linkRoutes } from "@/lib/http/resource-routes";
import { userGroups } from "@/lib/resources/user-groups";

export const { POST } = linkRoutes(userGroups);
