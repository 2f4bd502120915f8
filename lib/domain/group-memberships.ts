import { unprocessable } from "@/lib/errors";
import type { Tx } from "@/lib/db/types";

// Taking members out of a user group, shared by the group's links/users and the membership records.
// Lock order, so concurrent writes never deadlock: the group row (when a write holds it), then membership
// rows in id order, then the group's admin lock (lockGroupAdmins), always last.

/**
 * Sets the given users' memberships of a group inactive (the records stay; users without one are
 * ignored, so removing twice is harmless). The group keeps at least one active group_admin.
 */
export async function deactivateMembers(tx: Tx, userGroupId: number, userIds: number[]): Promise<void> {
  const rows = await tx.$queryRawUnsafe<{ id: number; state: string; roles: string[] }[]>(
    `SELECT id, state, roles FROM memberships WHERE user_group_id = $1 AND user_id = ANY($2::int[]) ORDER BY id FOR UPDATE`,
    userGroupId,
    [...new Set(userIds)],
  );
  const dropsAnAdmin = rows.some((m) => m.state === "active" && m.roles.includes("group_admin"));
  if (dropsAnAdmin) await lockGroupAdmins(tx, userGroupId);
  await tx.membership.updateMany({
    where: { id: { in: rows.map((m) => m.id) }, state: { not: "inactive" } },
    data: { state: "inactive", updatedAt: new Date() },
  });
  if (dropsAnAdmin) await requireAnActiveGroupAdmin(tx, userGroupId);
}

/**
 * Serialises the writes that could take away a group's last active group_admin (two admins leaving at
 * once would each see the other still there). Transaction-scoped; taken after any row lock.
 */
export async function lockGroupAdmins(tx: Tx, userGroupId: number): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, `user_group_admins:${userGroupId}`);
}

/** After a change under lockGroupAdmins: a group is never left without an active group_admin (422). */
export async function requireAnActiveGroupAdmin(tx: Tx, userGroupId: number): Promise<void> {
  const admins = await tx.membership.count({ where: { userGroupId, state: "active", roles: { has: "group_admin" } } });
  if (!admins) {
    throw unprocessable(
      "The group's last active group_admin cannot leave or give up the role: make another member a group_admin first (or delete the group)",
    );
  }
}
