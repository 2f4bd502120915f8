import type { Actor } from "@/lib/auth/actor";
import type { Tx, Where } from "@/lib/resources/types";

// Who acts for a user group: its *active* members. group_admin members edit the group, its memberships,
// and what the group owns (its collections); every active member may see a private group and what it
// owns. Invited and inactive members act for nothing.
export const GROUP_ROLES = ["group_admin", "group_member"] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

/** Prisma where on user_groups: the groups in which the user is an active member (with one of `roles`). */
export function activeMemberOf(userId: number, roles: readonly GroupRole[] = GROUP_ROLES): Where {
  return { memberships: { some: { userId, state: "active", roles: { hasSome: [...roles] } } } };
}

/** Prisma where on user_groups: the groups the actor may see (public ones, and private ones it is an active member of). */
export function userGroupReadScope(actor: Actor): Where {
  if (actor.user?.admin) return {};
  if (!actor.user) return { private: false };
  return { OR: [{ private: false }, activeMemberOf(actor.user.id)] };
}

/** Is the actor an active group_admin of the group (admins: always)? */
export async function isGroupAdmin(actor: Actor, groupId: number, tx: Tx): Promise<boolean> {
  if (actor.user?.admin) return true;
  if (!actor.user) return false;
  const m = await tx.membership.findUnique({
    where: { userGroupId_userId: { userGroupId: groupId, userId: actor.user.id } },
    select: { state: true, roles: true },
  });
  return !!m && m.state === "active" && m.roles.includes("group_admin");
}
