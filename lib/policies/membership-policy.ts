import type { Actor } from "@/lib/auth/actor";
import type { Where } from "@/lib/db/types";
import { activeMemberOf, GROUP_ROLES } from "./user-group-policy";

// Memberships of user groups: who sees them and which moves between their states exist. Who *acts* for a
// group (its active members, its active group_admins) is lib/policies/user-group-policy.ts.
export const MEMBERSHIP_STATES = ["invited", "active", "inactive"] as const;
export type MembershipState = (typeof MEMBERSHIP_STATES)[number];

/** Who moves a membership: its own user, or an active group_admin of its group (admins count as both). */
export type MembershipMover = "member" | "group_admin";

/**
 * The only moves between states (service-interface.md, "States and transitions"). Adding a user to a
 * group (POST /user_groups/<id>/links/users) invites them, or invites again one who had left; only the
 * user accepts; the user leaves, or an admin removes them. Where the table is silent: an invitation may
 * be declined by its user or withdrawn by an admin (invited → inactive, what DELETE does to it). Joining
 * with the group's join token (POST /memberships) makes any membership active: the token is the group's
 * standing invitation. Nobody else makes a membership active for its user.
 */
export const MEMBERSHIP_TRANSITIONS: readonly { from: MembershipState; to: MembershipState; by: readonly MembershipMover[] }[] = [
  { from: "invited", to: "active", by: ["member"] },
  { from: "invited", to: "inactive", by: ["member", "group_admin"] },
  { from: "active", to: "inactive", by: ["member", "group_admin"] },
  { from: "inactive", to: "invited", by: ["group_admin"] },
];

export function membershipTransition(from: string, to: string) {
  return MEMBERSHIP_TRANSITIONS.find((t) => t.from === from && t.to === to);
}

/**
 * Prisma where on memberships: the actor's own memberships, every membership of the groups it is an
 * active member of, and the active memberships of public groups (which the group's `users` link shows
 * anyway); admins see all. `membershipsVisibleTo` is the same rule over one loaded group.
 */
export function membershipReadScope(actor: Actor): Where {
  if (actor.user?.admin) return {};
  const publicActive: Where = { state: "active", userGroup: { private: false } };
  if (!actor.user) return publicActive;
  return { OR: [{ userId: actor.user.id }, { userGroup: activeMemberOf(actor.user.id) }, publicActive] };
}

interface LoadedMembership {
  userId: number;
  state: string;
  roles: string[];
}

export function isActiveMember(userId: number, m: LoadedMembership, roles: readonly string[] = GROUP_ROLES): boolean {
  return m.userId === userId && m.state === "active" && m.roles.some((r) => roles.includes(r));
}

/** The memberships of a loaded group that the actor may see (membershipReadScope, in memory). */
export function membershipsVisibleTo<M extends LoadedMembership>(actor: Actor, group: { private: boolean; memberships: M[] }): M[] {
  const user = actor.user;
  if (user?.admin || (user && group.memberships.some((m) => isActiveMember(user.id, m)))) return group.memberships;
  return group.memberships.filter((m) => (m.state === "active" && !group.private) || m.userId === user?.id);
}
