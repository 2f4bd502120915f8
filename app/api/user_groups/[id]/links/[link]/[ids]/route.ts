// DELETE /api/user_groups/<id>/links/users/<user ids>: those members become inactive (group admins; any member for themself).
import { removeGroupMembersRoute } from "@/lib/domain/remove-group-members";

export const DELETE = removeGroupMembersRoute;
