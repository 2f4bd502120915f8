import { db } from "@/lib/db";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { checkFailureLock, clearFailures, countAttempt, LIMITS, LOCKS, recordFailure } from "@/lib/http/rate-limit";
import type { User } from "@/lib/generated/prisma/client";

/**
 * The account a sign-in names: by email when it has an @, else by login; exact and case-insensitive
 * (citext equality on the unique index: nothing the client types is a pattern).
 */
export async function findAccount(login: string): Promise<User | null> {
  const name = login.trim();
  if (!name) return null;
  return db().user.findFirst({ where: name.includes("@") ? { email: name } : { login: name } });
}

// A hash to check against when the account does not exist, so the answer takes as long either way.
let decoy: Promise<string> | undefined;

/** The account if the password is its own; null otherwise. Banned users cannot sign in. */
async function passwordMatches(user: User | null, password: string): Promise<User | null> {
  if (!user || user.banned || !password) {
    await verifyPassword(password, await (decoy ??= hashPassword("not the password of anyone")));
    return null;
  }
  return (await verifyPassword(password, user.encryptedPassword)) ? user : null;
}

/**
 * A password check under the abuse limits (lib/http/rate-limit.ts): an address may check so many
 * passwords in a window, whichever accounts; failures lock the account for the address that failed
 * (keyed by the account's id, however its login was typed), with a higher ceiling over all addresses
 * past which only an address without failures may still try. 429 with Retry-After when refused.
 */
export async function authenticateWithinLimits(login: string, password: string, address: string | null): Promise<User | null> {
  await countAttempt(LIMITS.signInPerAddress, address);
  const account = await findAccount(login);
  // An unknown login is locked the same way, so the lock does not tell which accounts exist.
  const secret = account ? `id:${account.id}` : `login:${login.trim().toLowerCase()}`;
  await checkFailureLock(LOCKS.signIn, secret, address);
  const user = await passwordMatches(account, password);
  if (user) await clearFailures(LOCKS.signIn, secret, address);
  else await recordFailure(LOCKS.signIn, secret, address);
  return user;
}
