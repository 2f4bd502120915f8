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
