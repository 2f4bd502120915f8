// DELETE /api/user_groups/<id>/links/users/<ids>: make those members inactive (group admins).
import { linkRoutes } from "@/lib/http/resource-routes";
import { userGroups } from "@/lib/resources/user-groups";

export const { DELETE } = linkRoutes(userGroups);
