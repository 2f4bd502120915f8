// DELETE /api/user_groups/<id>/links/users/<user ids>: those members become inactive (group admins; any member for themself).
import { removeGroupMembersRoute } from "@/lib/handlers/remove-group-members";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const DELETE = removeGroupMembersRoute;

export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
