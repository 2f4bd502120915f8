import { db } from "@/lib/db";
import { revokeGrant, verifyAccessToken } from "@/lib/auth/tokens";
import { type signedInUser, tokenFor } from "./factories";

// The ways a bearer token can be refused, or change meaning after it was issued, for routes that check the
// token's grant inside their own statement (resolveCaller): each must answer as resolveActor would.

export type TokenUser = Awaited<ReturnType<typeof signedInUser>>;

export interface TokenCase {
  name: string;
  /** Whether the record the route reads or writes belongs to a private project. */
  private?: boolean;
  /** The request's Authorization header for user `u` (after changing what the case changes). */
  setup: (u: TokenUser) => Promise<string>;
  status: "ok" | 401 | 403 | 404 | 422;
  error?: RegExp;
}

const revoke = async (token: string) => {
  await revokeGrant((await verifyAccessToken(token)).grantId);
  return token;
};

export const TOKEN_CASES: TokenCase[] = [
  { name: "a valid token", setup: async (u) => `Bearer ${u.token}`, status: "ok" },
  { name: "a revoked token", setup: async (u) => `Bearer ${await revoke(u.token)}`, status: 401, error: /revoked/ },
  {
    name: "a banned user's token",
    setup: async (u) => {
      await db().user.update({ where: { id: u.user.id }, data: { banned: true } });
      return `Bearer ${u.token}`;
    },
    status: 401,
    error: /banned/,
  },
  { name: "a malformed Authorization header", setup: async () => "Token abc", status: 401, error: /Bearer/ },
  { name: "a forged token", setup: async (u) => `Bearer ${u.token.slice(0, -4)}AAAA`, status: 401, error: /Invalid or expired/ },
  {
    name: "a private project, by a user made admin after the token was issued (admin is read now)",
    private: true,
    setup: async (u) => {
      await db().user.update({ where: { id: u.user.id }, data: { admin: true } });
      return `Bearer ${u.token}`;
    },
    status: "ok",
  },
];

/** A token of `u` with only these scopes, revoked when `revoked`. */
export async function scopedToken(u: TokenUser, scopes: string[], revoked = false): Promise<string> {
  const token = await tokenFor(u.user, scopes);
  return `Bearer ${revoked ? await revoke(token) : token}`;
}
