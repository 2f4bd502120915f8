import crypto from "node:crypto";
import { z } from "zod";
import { db, pool } from "@/lib/db";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "@/lib/auth/password";
import { publicBaseUrl } from "@/lib/env";
import type { User } from "@/lib/generated/prisma/client";
import { AppError, unprocessable } from "@/lib/errors";
import { sendMail } from "@/lib/mail/mailer";
import { countAttempt, LIMITS } from "@/lib/auth/rate-limit";
import { endAccess, type KeepAccess } from "@/lib/auth/user-sessions";

// Accounts as the established platform's Devise routes: password change (PUT /users), reset by a token
// mailed to the address (POST/PUT /users/password), and disabling an account (DELETE /api/users/<id>).

const ZPassword = z
  .string()
  .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`);
const confirmed = <T extends { password: string; password_confirmation?: string }>(u: T) =>
  u.password_confirmation === undefined || u.password_confirmation === u.password;
const CONFIRMATION = { message: "password_confirmation doesn't match password", path: ["password_confirmation"] };

export const ZChangePassword = z.strictObject({
  user: z
    .strictObject({ current_password: z.string().max(1000), password: ZPassword, password_confirmation: z.string().max(1000).optional() })
    .refine(confirmed, CONFIRMATION),
  authenticity_token: z.string().optional(),
});
export const ZRequestReset = z.strictObject({
  user: z.strictObject({ email: z.string().max(255) }),
  authenticity_token: z.string().optional(),
});
export const ZResetPassword = z.strictObject({
  user: z
    .strictObject({
      reset_password_token: z.string().min(1).max(200),
      password: ZPassword,
      password_confirmation: z.string().max(1000).optional(),
    })
    .refine(confirmed, CONFIRMATION),
  authenticity_token: z.string().optional(),
});

/** How long a mailed reset token works (the established platform's Devise default). */
export const RESET_TOKEN_TTL_MS = 6 * 3600 * 1000;
const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

/**
 * A signed-in user changes their password, proving the current one; their other sessions and tokens end
 * (the session or token making the change stays).
 */
export async function changePassword(user: User, input: z.infer<typeof ZChangePassword>["user"], keep: KeepAccess = {}): Promise<User> {
  if (!(await verifyPassword(input.current_password, user.encryptedPassword))) throw unprocessable("current_password is invalid");
  const updated = await db().user.update({
    where: { id: user.id },
    data: { encryptedPassword: await hashPassword(input.password), resetPasswordTokenHash: null, resetPasswordSentAt: null },
  });
  await endAccess(user.id, keep);
  return updated;
}

/**
 * Mails a reset link to the account with this address, if there is one. The answer is the same either
 * way, so the form does not tell who has an account here.
 */
export async function requestPasswordReset(email: string, address: string | null): Promise<void> {
  await countAttempt(LIMITS.resetPerAddress, address);
  // Exact (citext) lookup; the per-account limit keys on the account, however the address was typed.
  const user = await db().user.findFirst({ where: { email: email.trim(), disabledAt: null, banned: false } });
  await countAttempt(LIMITS.resetPerAccount, user ? `id:${user.id}` : email.trim());
  if (!user) return;
  const token = crypto.randomBytes(32).toString("base64url");
  await db().user.update({ where: { id: user.id }, data: { resetPasswordTokenHash: sha256(token), resetPasswordSentAt: new Date() } });
  const link = `${publicBaseUrl()}/reset-password?reset_password_token=${token}`;
  await sendMail({
    to: user.email,
    subject: "Reset your Quorum password",
    text:
      `Hello ${user.displayName},\n\nSomeone asked to reset the password of your account '${user.login}'. ` +
      `To choose a new one, open:\n\n${link}\n\n` +
      "The link works once, for 6 hours. If it was not you, ignore this message: your password stays as it is.\n",
  });
}

/** Sets a new password with a mailed token (once, within its time); every session and token of the account ends. */
export async function resetPassword(input: z.infer<typeof ZResetPassword>["user"]): Promise<User> {
  const hash = sha256(input.reset_password_token);
  const password = await hashPassword(input.password);
  // One statement: only a live token works, and only once (a second use finds no row).
  const { rows } = await pool().query<{ id: number }>(
    `UPDATE users SET encrypted_password = $2, reset_password_token_hash = NULL, reset_password_sent_at = NULL, updated_at = now()
     WHERE reset_password_token_hash = $1 AND reset_password_sent_at > now() - make_interval(secs => $3) AND disabled_at IS NULL AND NOT banned
     RETURNING id`,
    [hash, password, RESET_TOKEN_TTL_MS / 1000],
  );
  if (!rows[0]) throw unprocessable("reset_password_token is invalid or has expired: ask for a new link");
  await endAccess(rows[0].id);
  return db().user.findUniqueOrThrow({ where: { id: rows[0].id } });
}

/**
 * DELETE /api/users/<id>, by the user or an admin: as the established platform, the account's personal data
 * are scrubbed (login, email, names, password) and it can never sign in again; its tokens are revoked. What
 * it contributed (classifications, projects) stays, no longer linked to a name.
 */
export async function disableUser(userId: number): Promise<void> {
  const scrubbed = `deleted-${userId}`;
  const res = await db().user.updateMany({
    where: { id: userId, disabledAt: null },
    data: {
      login: scrubbed,
      email: `${scrubbed}@deleted.invalid`,
      displayName: "Deleted user",
      creditedName: null,
      encryptedPassword: await hashPassword(crypto.randomBytes(32).toString("hex")),
      avatarSrc: null,
      banned: true,
      disabledAt: new Date(),
      resetPasswordTokenHash: null,
      resetPasswordSentAt: null,
      globalEmailCommunication: false,
      projectEmailCommunication: false,
      betaEmailCommunication: false,
      nasaEmailCommunication: false,
      uxTestingEmailCommunication: false,
      privateProfile: true,
    },
  });
  if (res.count !== 1) throw new AppError("not_found", `Could not find users with id='${userId}'`);
  await endAccess(userId);
}

/** Turns off every newsletter email of the account with this address, if there is one (the caller answers the same either way). */
export async function unsubscribeEmail(email: string): Promise<void> {
  await db().user.updateMany({
    where: { email },
    data: {
      globalEmailCommunication: false,
      projectEmailCommunication: false,
      betaEmailCommunication: false,
      nasaEmailCommunication: false,
      uxTestingEmailCommunication: false,
    },
  });
}
