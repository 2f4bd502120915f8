import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { hashPassword } from "@/lib/auth/password";

export const ALL_SCOPES = ["public", "user", "project", "group", "collection", "classification", "subject", "medium", "organization", "translation"];

/**
 * Run after migrations at every start: the first-party public application the official clients use
 * (client id PUBLIC_CLIENT_ID) exists, and ADMIN_LOGIN/ADMIN_PASSWORD, when set, name an admin account.
 */
export async function ensureBootstrapRecords(): Promise<void> {
  const e = env();
  await db().oAuthApplication.upsert({
    where: { clientId: e.PUBLIC_CLIENT_ID },
    create: { name: "Quorum public client", clientId: e.PUBLIC_CLIENT_ID, firstParty: true, scopes: ALL_SCOPES },
    update: { firstParty: true },
  });
  if (e.ADMIN_LOGIN && e.ADMIN_PASSWORD) {
    const encryptedPassword = await hashPassword(e.ADMIN_PASSWORD);
    await db().user.upsert({
      where: { login: e.ADMIN_LOGIN },
      create: {
        login: e.ADMIN_LOGIN,
        email: e.ADMIN_EMAIL ?? `${e.ADMIN_LOGIN.toLowerCase()}@admin.invalid`,
        displayName: e.ADMIN_LOGIN,
        encryptedPassword,
        admin: true,
      },
      update: { encryptedPassword, admin: true, banned: false },
    });
  }
}
