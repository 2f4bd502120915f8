import { z } from "zod";
import { db } from "@/lib/db";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { checkLimit, countAttempt, LIMITS } from "@/lib/auth/rate-limit";
import type { User } from "@/lib/generated/prisma/client";

export const ZLogin = z.string().regex(/^[A-Za-z0-9_.-]{3,80}$/, "login must be 3 to 80 letters, digits, '_', '-' or '.'");

export const ZRegisterUser = z.strictObject({
  login: ZLogin,
  email: z.email("email is invalid").max(255),
  password: z
    .string()
    .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`),
  display_name: z.string().min(1).max(255).optional(),
  credited_name: z.string().max(255).optional(),
  global_email_communication: z.boolean().optional(),
  project_email_communication: z.boolean().optional(),
  beta_email_communication: z.boolean().optional(),
  // Sent by the official client's registration form; accepted and ignored.
  project_id: z.union([z.string(), z.number()]).nullish(),
});
export type TRegisterUser = z.infer<typeof ZRegisterUser>;

// The established platform's answers, which its front end matches (/email(.+)taken/ puts it on the email field).
const LOGIN_TAKEN = "login has already been taken";
const EMAIL_TAKEN = "email has already been taken";

/** Creates an account; login and email are unique regardless of case (400 when taken). */
export async function registerUser(input: TRegisterUser, opts: { admin?: boolean } = {}): Promise<User> {
  const taken = await db().user.findFirst({
    where: { OR: [{ login: input.login }, { email: input.email }] },
    select: { login: true },
  });
  if (taken) throw new AppError("bad_request", taken.login.toLowerCase() === input.login.toLowerCase() ? LOGIN_TAKEN : EMAIL_TAKEN);
  return db().user.create({
    data: {
      login: input.login,
      email: input.email.toLowerCase(),
      encryptedPassword: await hashPassword(input.password),
      displayName: input.display_name ?? input.login,
      creditedName: input.credited_name ?? null,
      globalEmailCommunication: input.global_email_communication ?? false,
      projectEmailCommunication: input.project_email_communication ?? false,
      betaEmailCommunication: input.beta_email_communication ?? false,
      admin: opts.admin ?? false,
    },
  });
}

/**
 * A volunteer's sign-up from `address` (POST /users and the sign-up page), under the abuse limits: so many
 * sign-ups per address, and so many "email has already been taken" answers per address, past which every
 * sign-up from it is refused for the window whichever email it names (so the refusal tells nothing). The
 * answer stays the established platform's, which its clients depend on (docs/hardening.md). A taken login
 * is not counted: logins are public.
 */
export async function signUp(input: TRegisterUser, address: string | null): Promise<User> {
  await countAttempt(LIMITS.signUpPerAddress, address);
  await checkLimit(LIMITS.signUpTakenEmailPerAddress, address);
  try {
    return await registerUser(input);
  } catch (err) {
    if (err instanceof AppError && err.message === EMAIL_TAKEN) await countAttempt(LIMITS.signUpTakenEmailPerAddress, address);
    throw err;
  }
}
