import type { Actor } from "@/lib/auth/actor";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db/types";

// The admins' record: every change a site admin makes to what only admins may change (a project's
// approvals, requests and featuring; a user's ban, subject limit, upload allowance and admin flag) is
// written here, in the transaction of the change itself, with who made it and when.

/** The project fields an admin's change of is recorded (the established platform's admin_allowed ones, and the requests an admin answers). */
export const RECORDED_PROJECT_FIELDS = [
  "approved",
  "beta_approved",
  "launch_approved",
  "featured",
  "beta_requested",
  "launch_requested",
] as const;
/** The user fields an admin's change of is recorded. */
export const RECORDED_USER_FIELDS = ["banned", "subject_limit", "upload_whitelist", "admin"] as const;

/**
 * Records what an admin changed on a record: the fields in `after` whose value differs from `before`, each
 * as {from, to}. Nothing is recorded when the actor is no admin or nothing changed.
 */
export async function recordAdminChanges(
  tx: Tx,
  actor: Actor,
  target: { type: "project" | "user"; id: number },
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<void> {
  if (!actor.user?.admin) return;
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined || before[field] === to) continue;
    changes[field] = { from: before[field] ?? null, to };
  }
  if (!Object.keys(changes).length) return;
  await tx.adminAction.create({
    data: { adminId: actor.user.id, targetType: target.type, targetId: target.id, changes: changes as Prisma.InputJsonValue },
  });
}
