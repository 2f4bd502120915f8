import type { Actor } from "@/lib/auth/actor";
import { z } from "zod";
import type { AdminAction, Prisma } from "@/lib/generated/prisma/client";
import { forbidden, notFound, unprocessable } from "@/lib/errors";
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

/** The reviews an owner asks for and an admin answers: the request's field and the approval's. */
const REVIEWS = {
  beta: { requested: "betaRequested", approved: "beta", field: "beta_requested" },
  launch: { requested: "launchRequested", approved: "launchApproved", field: "launch_requested" },
} as const;

/** What an admin sends to refuse a review: which one, and (optionally) why, for the project's team. */
export const ZReviewRefusal = z.strictObject({
  review: z.enum(["beta", "launch"]),
  reason: z.string().trim().max(2000).nullish(),
});

/**
 * An admin refuses a project's pending beta or launch review: the request is cleared (the owner may ask
 * again) and the refusal is recorded as an action of its own, with the reason the lab shows the team.
 * Refused (403) for anyone but an admin; a 404 for no such project; a 422 when no such review is pending.
 */
export async function refuseReview(tx: Tx, actor: Actor, projectId: number, input: z.infer<typeof ZReviewRefusal>): Promise<AdminAction> {
  if (!actor.user?.admin) throw forbidden("Only admins may refuse a review");
  const review = REVIEWS[input.review];
  const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM projects WHERE id = ${projectId} FOR UPDATE`;
  if (!locked.length) throw notFound();
  const project = await tx.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { betaRequested: true, beta: true, launchRequested: true, launchApproved: true },
  });
  if (!project[review.requested] || project[review.approved])
    throw unprocessable(`The project has no pending ${input.review} review to refuse`);
  await tx.project.update({ where: { id: projectId }, data: { [review.requested]: false, updatedAt: new Date() } });
  return tx.adminAction.create({
    data: {
      adminId: actor.user.id,
      targetType: "project",
      targetId: projectId,
      kind: "refusal",
      changes: { [review.field]: { from: true, to: false } },
      reason: input.reason || null,
    },
  });
}
