import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/password";
import type { User } from "@/lib/generated/prisma/client";

/** The user with this login (or email) and password, or null. Banned users cannot sign in. */
export async function authenticateUser(login: string, password: string): Promise<User | null> {
  if (!login || !password) return null;
  const user = await db().user.findFirst({
    where: login.includes("@") ? { email: { equals: login, mode: "insensitive" } } : { login: { equals: login, mode: "insensitive" } },
  });
  if (!user || user.banned) return null;
  return (await verifyPassword(password, user.encryptedPassword)) ? user : null;
}

/**
 * A password check under the abuse limits: an address may try so many times in a window, and an account
 * that failed too often is locked for the rest of its window (429 with Retry-After), whoever tries.
 */
export async function authenticateWithinLimits(login: string, password: string, address: string | null): Promise<User | null> {
  const { checkLimit, countAttempt, LIMITS } = await import("@/lib/http/rate-limit");
  const account = login.trim() || null;
  await checkLimit(LIMITS.signInFailuresPerAccount, account);
  await countAttempt(LIMITS.signInPerAddress, address);
  const user = await authenticateUser(login, password);
  if (!user) await countAttempt(LIMITS.signInFailuresPerAccount, account);
  return user;
}
