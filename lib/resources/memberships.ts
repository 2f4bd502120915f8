import crypto from "node:crypto";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { Membership, Prisma } from "@/lib/generated/prisma/client";
import { AppError, forbidden, notFound, unauthorized, unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { lockGroupAdmins, requireAnActiveGroupAdmin } from "@/lib/domain/group-memberships";
import {
  MEMBERSHIP_STATES,
  membershipReadScope,
  membershipTransition,
  type MembershipMover,
  type MembershipState,
} from "@/lib/policies/membership-policy";
import { GROUP_ROLES, isGroupAdmin, userGroupReadScope } from "@/lib/policies/user-group-policy";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { userInclude } from "./users";
import { serializeMembership } from "./membership-wire";
import { userGroups } from "./user-groups";

// Memberships of users in user groups (/api/memberships). States move only as the contract's table says
// (MEMBERSHIP_TRANSITIONS in lib/policies/membership-policy.ts):
//   (none) --invited by a group admin (links/users)--> invited --the user accepts--> active
//   active --the member leaves, an admin sets inactive, or DELETE--> inactive (the record stays)
// Anyone holding the group's join token may join (POST, links.user = themself): a new membership, or an
// invited or inactive one, becomes active. Members change only their own state; group admins change
// others' state (within the table) and roles. A group keeps at least one active group_admin.

const ZId = z.union([z.string(), z.number()]);
const ZCreateMembership = z.strictObject({
  join_token: z.string({ error: "join_token is required" }).min(1, "join_token is required").max(200),
  links: z.strictObject({ user: ZId, user_group: ZId }),
});
const ZUpdateMembership = z.strictObject({
  state: z.enum(MEMBERSHIP_STATES, { message: `state must be one of ${MEMBERSHIP_STATES.join(", ")}` }).optional(),
  roles: z
    .array(z.enum(GROUP_ROLES, { message: `roles must be among ${GROUP_ROLES.join(", ")}` }))
    .min(1, "roles must name at least one role")
    .max(2)
    .optional(),
});

/** Compares secrets in constant time, so response times say nothing about how much of a guess was right. */
function sameSecret(given: string, actual: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(actual);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

const sameRoles = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((r) => b.includes(r));

/** Applies a state and roles change after checking who may make it; never orphans the group. */
async function change(tx: Tx, actor: Actor, m: Membership, next: { state: MembershipState; roles: string[] }) {
  const movers: MembershipMover[] = [];
  if (actor.user?.id === m.userId) movers.push("member");
  if (await isGroupAdmin(actor, m.userGroupId, tx)) movers.push("group_admin");
  if (!movers.includes("group_admin")) {
    if (!movers.includes("member")) throw forbidden("Only the group's admins may change another member's membership");
    if (!sameRoles(next.roles, m.roles)) throw forbidden("Only the group's admins may change roles");
  }
  if (next.state !== m.state) {
    const move = membershipTransition(m.state, next.state);
    if (!move) {
      const rejoin = m.state === "inactive" && next.state === "active" ? " (join again with the group's join token)" : "";
      throw unprocessable(`A membership cannot move from ${m.state} to ${next.state}${rejoin}`);
    }
    if (!move.by.some((who) => movers.includes(who))) {
      throw forbidden(
        `Only ${move.by.includes("member") ? "the member themself" : "the group's admins"} may move a membership from ${m.state} to ${next.state}`,
      );
    }
  }
  const dropsAnAdmin =
    m.state === "active" && m.roles.includes("group_admin") && !(next.state === "active" && next.roles.includes("group_admin"));
  if (dropsAnAdmin) await lockGroupAdmins(tx, m.userGroupId);
  await tx.membership.update({ where: { id: m.id }, data: { state: next.state, roles: next.roles, updatedAt: new Date() } });
  if (dropsAnAdmin) await requireAnActiveGroupAdmin(tx, m.userGroupId);
}

export const memberships: ResourceDef<Membership> = {
  type: "memberships",
  table: "memberships",
  model: "membership",
  tokenScopes: { read: "group", write: "group" },
  serialize: serializeMembership,
  linkTemplates: {
    user: { href: "/users/{memberships.user}", type: "users" },
    user_group: { href: "/user_groups/{memberships.user_group}", type: "user_groups" },
  },
  includes: {
    user: userInclude(),
    user_group: {
      type: "user_groups",
      load: async (rows, actor) => {
        // Only groups the actor may see (an invitee does not see the private group that invited them until they accept).
        const found = await db().userGroup.findMany({
          where: { AND: [{ id: { in: [...new Set(rows.map((r) => r.userGroupId))] } }, userGroupReadScope(actor)] },
          include: userGroups.queryInclude as Prisma.UserGroupInclude,
          orderBy: { id: "asc" },
        });
        return found.map((g) => ({
          record: userGroups.serialize(g as never, actor),
          parentIds: rows.filter((r) => r.userGroupId === g.id).map((r) => r.id),
        }));
      },
    },
  },
  filters: {
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
    user_group_id: (v) => ({ userGroupId: { in: parseIdList(v, "user_group_id") } }),
    state: (v) => {
      if (!(MEMBERSHIP_STATES as readonly string[]).includes(v))
        throw unprocessable(`state must be one of ${MEMBERSHIP_STATES.join(", ")}`);
      return { state: v };
    },
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  defaultSort: "id",
  readScope: membershipReadScope,
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
      const missing = notFound(`Could not find user_groups with id='${groupId}'`);
      if (!group) throw missing;
      if (!sameSecret(input.join_token, group.joinToken)) {
        // Without the token, a private group the caller cannot see stays as invisible as a missing one.
        const visible = await tx.userGroup.count({ where: { AND: [{ id: groupId }, userGroupReadScope(actor)] } });
        throw visible ? forbidden("Invalid join token") : missing;
      }
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
      await change(tx, actor, row, {
        state: (input.state ?? row.state) as MembershipState,
        roles: input.roles ? [...new Set(input.roles)] : row.roles,
      });
    },
  },
  // DELETE leaves the group (or declines or withdraws an invitation): the membership becomes inactive and stays.
  destroy: async ({ actor, tx }, row) => {
    if (row.state === "inactive") throw new AppError("invalid", "The membership is already inactive");
    await change(tx, actor, row, { state: "inactive", roles: row.roles });
  },
};
