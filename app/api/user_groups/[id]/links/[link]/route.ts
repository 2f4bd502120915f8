// POST /api/user_groups/<id>/links/users: invite users to the group (group admins).
import { linkRoutes } from "@/lib/http/resource-routes";
import { userGroups } from "@/lib/resources/user-groups";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(userGroups);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
