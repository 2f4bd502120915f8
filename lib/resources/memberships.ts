import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Membership } from "@/lib/generated/prisma/client";
import { ApiError, forbidden, notFound, unauthorized, unprocessable } from "@/lib/http/api-error";
import { parseIdList, parseIdValue } from "@/lib/http/request";
import { activeMemberOf, GROUP_ROLES, isGroupAdmin } from "@/lib/policies/user-group-policy";
import type { ResourceDef, Tx, Where } from "./types";
import { iso } from "./wire";

// Memberships of users in user groups (/api/memberships). States, as the contract's table says:
//   (none) --invited by a group admin (links/users)--> invited --the user accepts--> active
//   active --the member leaves, an admin sets inactive, or DELETE--> inactive (the record stays)
// Anyone holding the group's join token may join (POST, links.user = themself): a new membership, or an
// invited or inactive one, becomes active. Members change only their own state; group admins change
// anyone's state and roles. A group keeps at least one active group_admin.

export const MEMBERSHIP_STATES = ["invited", "active", "inactive"] as const;
type State = (typeof MEMBERSHIP_STATES)[number];

const ZId = z.union([z.string(), z.number()]);
const ZCreateMembership = z.strictObject({
  join_token: z.string({ error: "join_token is required" }).min(1, "join_token is required"),
  links: z.strictObject({ user: ZId, user_group: ZId }),
});
const ZUpdateMembership = z.strictObject({
  state: z.enum(MEMBERSHIP_STATES, { message: `state must be one of ${MEMBERSHIP_STATES.join(", ")}` }).optional(),
  roles: z.array(z.enum(GROUP_ROLES, { message: `roles must be among ${GROUP_ROLES.join(", ")}` })).min(1).max(2).optional(),
});

/** Moves a member may make on their own membership. */
const OWN_MOVES: Record<State, readonly State[]> = { invited: ["active", "inactive"], active: ["inactive"], inactive: [] };

export function serializeMembership(m: Membership) {
  return {
    id: String(m.id),
    state: m.state,
    roles: m.roles,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    href: `/memberships/${m.id}`,
    links: { user: String(m.userId), user_group: String(m.userGroupId) },
  };
}

/** Would this change leave the group without an active group_admin? */
async function orphansGroup(tx: Tx, m: Membership, next: { state: string; roles: string[] }): Promise<boolean> {
  const wasAdmin = m.state === "active" && m.roles.includes("group_admin");
  const staysAdmin = next.state === "active" && next.roles.includes("group_admin");
  if (!wasAdmin || staysAdmin) return false;
  const others = await tx.membership.count({ where: { userGroupId: m.userGroupId, id: { not: m.id }, state: "active", roles: { has: "group_admin" } } });
  return others === 0;
}

async function change(tx: Tx, actor: Actor, m: Membership, next: { state: State; roles: string[] }) {
  const admin = await isGroupAdmin(actor, m.userGroupId, tx);
  const own = actor.user?.id === m.userId;
  if (!admin) {
    if (!own) throw forbidden("Only the group's admins may change another member's membership");
    if (next.roles.join() !== m.roles.join()) throw forbidden("Only the group's admins may change roles");
    if (next.state !== m.state && !OWN_MOVES[m.state as State].includes(next.state)) {
      throw unprocessable(`A member cannot move their membership from ${m.state} to ${next.state}${m.state === "inactive" ? " (join again with the group's join token)" : ""}`);
    }
  }
  if (await orphansGroup(tx, m, next)) throw unprocessable("The group's last active group_admin cannot leave or give up the role: make another member group_admin first");
  await tx.membership.update({ where: { id: m.id }, data: { state: next.state, roles: next.roles, updatedAt: new Date() } });
}

export const memberships: ResourceDef<Membership> = {
  type: "memberships",
  table: "memberships",
  model: "membership",
  writeScope: "group",
  serialize: serializeMembership,
  linkTemplates: {
    user: { href: "/users/{memberships.user}", type: "users" },
    user_group: { href: "/user_groups/{memberships.user_group}", type: "user_groups" },
  },
  filters: {
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
    user_group_id: (v) => ({ userGroupId: { in: parseIdList(v, "user_group_id") } }),
    state: (v) => {
      if (!(MEMBERSHIP_STATES as readonly string[]).includes(v)) throw unprocessable(`state must be one of ${MEMBERSHIP_STATES.join(", ")}`);
      return { state: v };
    },
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  defaultSort: "id",
  // One's own memberships; every membership of a group one is an active member of; active memberships of
  // public groups (admins: all).
  readScope: (actor): Where => {
    if (actor.user?.admin) return {};
    const publicActive: Where = { state: "active", userGroup: { private: false } };
    if (!actor.user) return publicActive;
    return { OR: [{ userId: actor.user.id }, { userGroup: activeMemberOf(actor.user.id) }, publicActive] };
  },
  // Editing rules depend on what changes (see change()); here: the member themself or a group admin.
  can: async (actor, action, row, tx) => action === "show" || actor.user?.id === row.userId || isGroupAdmin(actor, row.userGroupId, tx),
  create: {
    schema: ZCreateMembership,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateMembership>) => {
      if (!actor.user) throw unauthorized("You must be signed in to do that");
      const userId = parseIdValue(input.links.user, "links.user");
      const groupId = parseIdValue(input.links.user_group, "links.user_group");
      if (userId !== actor.user.id) throw forbidden("A membership can only be created for yourself (links.user)");
      const group = await tx.userGroup.findUnique({ where: { id: groupId }, select: { joinToken: true } });
      if (!group) throw notFound(`Could not find user_groups with id='${groupId}'`);
      if (group.joinToken !== input.join_token) throw forbidden("Invalid join token");
      const m = await tx.membership.upsert({
        where: { userGroupId_userId: { userGroupId: groupId, userId } },
        create: { userGroupId: groupId, userId, state: "active", roles: ["group_member"] },
        update: { state: "active", updatedAt: new Date() },
      });
      return m.id;
    },
  },
  update: {
    schema: ZUpdateMembership,
    perform: async ({ actor, tx }, row, input: z.infer<typeof ZUpdateMembership>) => {
      await change(tx, actor, row, { state: (input.state ?? row.state) as State, roles: input.roles ? [...new Set(input.roles)] : row.roles });
    },
  },
  // DELETE leaves the group: the membership becomes inactive and stays.
  destroy: async ({ actor, tx }, row) => {
    if (row.state === "inactive") throw new ApiError(422, "The membership is already inactive");
    await change(tx, actor, row, { state: "inactive", roles: row.roles });
  },
};
