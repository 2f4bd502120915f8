import { db } from "@/lib/db";
import { env, parseOrigins, publicBaseUrl } from "@/lib/env";
import { hashPassword } from "@/lib/auth/password";
import { ALL_SCOPES } from "@/lib/auth/scopes";

/**
 * Where the public application's implicit grant (GET /oauth/authorize, the established front end's Login
 * button) may send a token: PUBLIC_CLIENT_REDIRECT_URIS (comma- or space-separated URIs), else our own
 * origin and the CORS_ORIGINS origins (front ends we already trust with a browser session).
 */
export function publicClientRedirectUris(e = env()): string[] {
  const listed = (e.PUBLIC_CLIENT_REDIRECT_URIS ?? "").split(/[\s,]+/).filter(Boolean);
  if (listed.length) {
    for (const uri of listed) {
      const u = URL.canParse(uri) ? new URL(uri) : null;
      if (!u || !/^https?:$/.test(u.protocol) || u.hash)
        throw new Error(`PUBLIC_CLIENT_REDIRECT_URIS: '${uri}' is not an http(s) URI without a fragment`);
    }
    return [...new Set(listed)];
  }
  return [...new Set([new URL(publicBaseUrl(e)).origin, ...parseOrigins(e.CORS_ORIGINS)])];
}

/**
 * Run after migrations at every start: the first-party public application the official clients use
 * (client id PUBLIC_CLIENT_ID) exists with its redirect URIs as configured now, and ADMIN_LOGIN/ADMIN_PASSWORD, when set, name an admin account.
 */
export async function ensureBootstrapRecords(): Promise<void> {
  const e = env();
  await db().oAuthApplication.upsert({
    where: { clientId: e.PUBLIC_CLIENT_ID },
    create: {
      name: "Quorum public client",
      clientId: e.PUBLIC_CLIENT_ID,
      firstParty: true,
      scopes: [...ALL_SCOPES],
      redirectUris: publicClientRedirectUris(),
    },
    update: { firstParty: true, redirectUris: publicClientRedirectUris() },
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
