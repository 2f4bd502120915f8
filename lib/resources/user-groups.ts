import crypto from "node:crypto";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { UserGroup } from "@/lib/generated/prisma/client";
import { AppError, unprocessable } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import { deactivateMembers } from "@/lib/domain/group-memberships";
import { membershipReadScope, membershipsVisibleTo } from "@/lib/policies/membership-policy";
import { isGroupAdmin, userGroupReadScope } from "@/lib/policies/user-group-policy";
import { serializeMembership } from "./membership-wire";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { users } from "./users";
import { iso } from "./wire";
import { containsIgnoringCase, equalsIgnoringCase } from "@/lib/db/like";

// User groups (/api/user_groups): public ones visible to all, private ones to their active members. The
// creator is the first active group_admin; group admins edit the group, invite users (links/users) and
// see its join token, which anyone may use to join (POST /api/memberships). Names are unique without
// regard to case. Members leave through DELETE .../links/users/<their id> too
// (lib/handlers/remove-group-members.ts).

export const STATS_VISIBILITIES = [
  "private_agg_only",
  "private_show_agg_and_ind",
  "public_agg_only",
  "public_agg_show_ind_if_member",
  "public_show_all",
] as const;

type MembershipLite = { id: number; userId: number; state: string; roles: string[] };
type UserGroupRow = UserGroup & { memberships: MembershipLite[] };

const ZName = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, "name must be 1-80 letters, digits, _ or -");
const ZId = z.union([z.string(), z.number()]);
const ZStats = z.enum(STATS_VISIBILITIES, { message: `stats_visibility must be one of ${STATS_VISIBILITIES.join(", ")}` });
const ZCreateUserGroup = z.strictObject({
  name: ZName,
  display_name: z.string().min(1).max(255).optional(),
  private: z.boolean().optional(),
  stats_visibility: ZStats.optional(),
  links: z.strictObject({ users: z.array(ZId).max(100).optional() }).optional(),
});
const ZUpdateUserGroup = z.strictObject({
  name: ZName.optional(),
  display_name: z.string().min(1).max(255).optional(),
  private: z.boolean().optional(),
  stats_visibility: ZStats.optional(),
});

const activeAdmin = (g: UserGroupRow, userId: number | undefined) =>
  g.memberships.some((m) => m.userId === userId && m.state === "active" && m.roles.includes("group_admin"));

export function serializeUserGroup(g: UserGroupRow, actor: Actor) {
  const seesToken = actor.user?.admin || activeAdmin(g, actor.user?.id);
  return {
    id: String(g.id),
    name: g.name,
    display_name: g.displayName,
    classifications_count: g.classificationsCount,
    created_at: iso(g.createdAt),
    updated_at: iso(g.updatedAt),
    type: "user_groups",
    href: `/user_groups/${g.id}`,
    private: g.private,
    stats_visibility: g.statsVisibility,
    ...(seesToken ? { join_token: g.joinToken } : {}),
    links: {
      // Only the memberships the actor may see (an invitation to a public group is its invitee's and members' business).
      memberships: membershipsVisibleTo(actor, g).map((m) => String(m.id)),
      users: g.memberships.filter((m) => m.state === "active").map((m) => String(m.userId)),
    },
  };
}

const nameTaken = (name: string) => new AppError("bad_request", `name '${name}' has already been taken by another group`);

/** Checked first for a clear message; the unique index on lower(name) settles races (see writeNamed). */
async function ensureNameFree(tx: Tx, name: string, exceptId?: number) {
  const clash = await tx.$queryRawUnsafe<{ id: number }[]>(
    `SELECT id FROM user_groups WHERE lower(name) = lower($1) AND id <> $2 LIMIT 1`,
    name,
    exceptId ?? -1,
  );
  if (clash.length) throw nameTaken(name);
}

/** A write of the group's name: a concurrent writer that took the name first makes it the same 400. */
async function writeNamed<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (name !== undefined && (err as { code?: string })?.code === "P2002") throw nameTaken(name);
    throw err;
  }
}

const touch = (tx: Tx, id: number) => tx.userGroup.update({ where: { id }, data: { updatedAt: new Date() } });

async function existingUserIds(tx: Tx, raw: unknown[]): Promise<number[]> {
  const ids = [...new Set(raw.map((v) => parseIdValue(v as string, "links.users")))];
  const found = await tx.user.findMany({ where: { id: { in: ids } }, select: { id: true } });
  const missing = ids.filter((id) => !found.some((u) => u.id === id));
  if (missing.length) throw unprocessable(`links.users: no user with id ${missing.join(", ")}`);
  return ids;
}

/** Invites users: new members are invited, inactive ones invited again; active members stay as they are. */
async function inviteUsers(tx: Tx, groupId: number, userIds: number[]) {
  if (!userIds.length) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO memberships (user_group_id, user_id, state, roles, updated_at) SELECT $1, u, 'invited', ARRAY['group_member'], now() FROM unnest($2::int[]) u
     ON CONFLICT (user_group_id, user_id) DO UPDATE SET state = 'invited', updated_at = now() WHERE memberships.state = 'inactive'`,
    groupId,
    userIds,
  );
}

export const userGroups: ResourceDef<UserGroupRow> = {
  type: "user_groups",
  table: "user_groups",
  model: "userGroup",
  tokenScopes: { read: "none", write: "group" },
  queryInclude: { memberships: { select: { id: true, userId: true, state: true, roles: true }, orderBy: { id: "asc" } } },
  serialize: serializeUserGroup,
  linkTemplates: {
    memberships: { href: "/memberships?user_group_id={user_groups.id}", type: "memberships" },
    users: { href: "/users?user_group_id={user_groups.id}", type: "users" },
    projects: { href: "/projects?owner={user_groups.name}", type: "projects" },
    collections: { href: "/collections?owner={user_groups.name}", type: "collections" },
  },
  includes: {
    memberships: {
      type: "memberships",
      load: async (rows, actor) => {
        const list = await db().membership.findMany({
          where: { AND: [{ userGroupId: { in: rows.map((r) => r.id) } }, await membershipReadScope(actor)] },
          orderBy: { id: "asc" },
        });
        return list.map((m) => ({ record: serializeMembership(m), parentIds: [m.userGroupId] }));
      },
    },
    users: {
      type: "users",
      load: async (rows, actor) => {
        const active = rows.flatMap((r) =>
          r.memberships.filter((m) => m.state === "active").map((m) => ({ groupId: r.id, userId: m.userId })),
        );
        const list = await db().user.findMany({ where: { id: { in: [...new Set(active.map((a) => a.userId))] } }, orderBy: { id: "asc" } });
        return list.map((u) => ({
          record: users.serialize(u, actor),
          parentIds: active.filter((a) => a.userId === u.id).map((a) => a.groupId),
        }));
      },
    },
  },
  filters: {
    name: (v) => ({ name: equalsIgnoringCase(v) }),
    display_name: (v) => ({ displayName: v }),
    search: (v) => ({ OR: [{ name: containsIgnoringCase(v) }, { displayName: containsIgnoringCase(v) }] }),
  },
  sortable: { id: "id", name: "name", display_name: "displayName", created_at: "createdAt", updated_at: "updatedAt" },
  readScope: userGroupReadScope,
  can: (actor, action, row, tx) => (action === "show" ? true : isGroupAdmin(actor, row.id, tx)),
  create: {
    schema: ZCreateUserGroup,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateUserGroup>) => {
      await ensureNameFree(tx, input.name);
      const invited = await existingUserIds(tx, input.links?.users ?? []);
      const group = await writeNamed(input.name, () =>
        tx.userGroup.create({
          data: {
            name: input.name,
            displayName: input.display_name ?? input.name,
            private: input.private ?? true,
            statsVisibility: input.stats_visibility ?? "private_agg_only",
            joinToken: crypto.randomBytes(16).toString("hex"),
          },
        }),
      );
      await tx.membership.create({ data: { userGroupId: group.id, userId: actor.user!.id, state: "active", roles: ["group_admin"] } });
      await inviteUsers(
        tx,
        group.id,
        invited.filter((id) => id !== actor.user!.id),
      );
      return group.id;
    },
  },
  update: {
    schema: ZUpdateUserGroup,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdateUserGroup>) => {
      if (input.name !== undefined) await ensureNameFree(tx, input.name, row.id);
      await writeNamed(input.name, () =>
        tx.userGroup.update({
          where: { id: row.id },
          data: {
            name: input.name,
            displayName: input.display_name,
            private: input.private,
            statsVisibility: input.stats_visibility,
            updatedAt: new Date(),
          },
        }),
      );
    },
  },
  destroy: async ({ tx }, row) => {
    await tx.userGroup.delete({ where: { id: row.id } });
  },
  links: {
    users: {
      // The group's links (and so its ETag) change with who belongs.
      add: async ({ tx }, row, ids) => {
        await inviteUsers(tx, row.id, await existingUserIds(tx, ids));
        await touch(tx, row.id);
      },
      remove: async ({ tx }, row, ids) => {
        await deactivateMembers(tx, row.id, ids);
        await touch(tx, row.id);
      },
    },
  },
};
