import crypto from "node:crypto";
import { noteRequestUser } from "@/lib/log/context";
import { SignJWT, jwtVerify, type JWTPayload } from "jose";
import { db, pool } from "@/lib/db";
import { AppError, unauthorized } from "@/lib/errors";
import { JWT_ALG, keys, RSA_ALGS, type RsaAlg } from "./keys";
import { keyId } from "./public-key";

export const ACCESS_TOKEN_TTL = 7200;
// Refresh tokens outlive access tokens; a refreshed grant revokes the one it replaces.
const REFRESH_TOKEN_TTL = 14 * 24 * 3600;
const ISSUER = "quorum";

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
  created_at: number;
}

export interface TokenUser {
  id: number;
  login: string;
  displayName: string;
  admin: boolean;
}

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

/** A new grant and its token pair; `familyId` when it replaces a grant (refresh), else it starts a family. */
export async function issueToken(
  applicationId: number,
  clientId: string,
  user: TokenUser,
  scopes: string[],
  familyId?: string,
): Promise<TokenResponse> {
  const grantId = crypto.randomUUID();
  const refreshToken = crypto.randomBytes(32).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  await db().oAuthGrant.create({
    data: {
      id: grantId,
      applicationId,
      userId: user.id,
      scopes,
      refreshTokenHash: sha256(refreshToken),
      familyId: familyId ?? grantId,
      expiresAt: new Date((now + REFRESH_TOKEN_TTL) * 1000),
    },
  });
  const { privateKey, publicKeyPem } = await keys();
  // The established platform's claims (`data`, read by its front end in the browser), and ours at the top.
  const accessToken = await new SignJWT({
    data: { id: user.id, login: user.login, dname: user.displayName, scope: scopes, admin: user.admin },
    login: user.login,
    dname: user.displayName,
    scope: scopes,
    admin: user.admin,
    client_id: clientId,
  })
    .setProtectedHeader({ alg: JWT_ALG, typ: "JWT", kid: keyId(publicKeyPem) })
    .setSubject(String(user.id))
    .setJti(grantId)
    .setIssuer(ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_TTL)
    .sign(privateKey);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL,
    refresh_token: refreshToken,
    scope: scopes.join(" "),
    created_at: now,
  };
}

export interface VerifiedToken {
  userId: number;
  scopes: string[];
  grantId: string;
  user: { id: number; login: string; displayName: string; admin: boolean; banned: boolean };
}

const verifiedSignatures = new Map<string, JWTPayload>();

/** What a signed, unexpired access token says, before its grant is checked. */
export interface TokenClaims {
  userId: number;
  grantId: string;
  scopes: string[];
}

/** Verifies the token's signature and expiry (once per token: a bounded cache), 401 otherwise. The grant is not checked. */
export async function verifyTokenSignature(token: string): Promise<TokenClaims> {
  let payload = verifiedSignatures.get(token);
  if (!payload || (payload.exp ?? 0) * 1000 <= Date.now()) {
    verifiedSignatures.delete(token);
    const { publicKeys } = await keys();
    try {
      // Any RS* signature by our key (a change of JWT_ALG leaves issued tokens good); nothing else.
      ({ payload } = await jwtVerify(token, (header) => publicKeys[header.alg as RsaAlg], { issuer: ISSUER, algorithms: [...RSA_ALGS] }));
    } catch {
      throw unauthorized("Invalid or expired access token");
    }
    if (verifiedSignatures.size >= 10_000) verifiedSignatures.delete(verifiedSignatures.keys().next().value!);
    verifiedSignatures.set(token, payload);
  }
  // The request's log line names the token's user (lib/log/context.ts).
  noteRequestUser(Number(payload.sub));
  return { userId: Number(payload.sub), grantId: String(payload.jti ?? ""), scopes: (payload.scope as string[]) ?? [] };
}

/** A grant and its user now (the columns of GrantRow), by grant id: $19 in the classification create's statement, $1 here. */
export const grantSql = (param: string) =>
  `SELECT g.revoked_at, u.id, u.login, u.display_name, u.admin, u.banned FROM oauth_grants g JOIN users u ON u.id = g.user_id WHERE g.id = ${param}`;

/** The answer to a revoked (or unknown) grant. */
export const revokedToken = () => unauthorized("Access token has been revoked");

/**
 * Verifies signature and expiry, then that the grant has not been revoked (401 otherwise). Signatures are
 * checked once per token; revocation every time (one query, or inside the caller's own statement: see
 * createClassification).
 */
export async function verifyAccessToken(token: string): Promise<VerifiedToken> {
  const { grantId, scopes } = await verifyTokenSignature(token);
  // One query on every authenticated request: the grant is not revoked, and who its user is now.
  const { rows } = await pool().query(grantSql("$1"), [grantId]);
  const row = rows[0];
  if (!row || row.revoked_at) throw revokedToken();
  return {
    userId: row.id,
    scopes,
    grantId,
    user: { id: row.id, login: row.login, displayName: row.display_name, admin: row.admin, banned: row.banned },
  };
}

const invalidRefresh = (why: string) => new AppError("bad_request", why, { error: "invalid_grant" });

/**
 * Exchanges a refresh token for a new token pair, revoking the old grant (rotation). A refresh token that
 * was already exchanged is being replayed, by a thief or by the client it was stolen from: every grant of
 * its family is revoked, so the token that replaced it stops working too (OAuth 2.0 Security BCP 4.14).
 */
export async function refreshGrant(refreshToken: string, clientId: string | undefined): Promise<TokenResponse> {
  const grant = await db().oAuthGrant.findUnique({
    where: { refreshTokenHash: sha256(refreshToken) },
    include: { application: true, user: true },
  });
  if (!grant || grant.expiresAt < new Date() || (clientId && grant.application.clientId !== clientId)) {
    throw invalidRefresh("The refresh token is invalid, expired or revoked");
  }
  if (grant.revokedAt) {
    await revokeFamily(grant.familyId);
    throw invalidRefresh("The refresh token is invalid, expired or revoked");
  }
  // Only one concurrent exchange wins; the loser sees zero rows updated, and is a reuse like any other.
  const revoked = await db().oAuthGrant.updateMany({ where: { id: grant.id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (revoked.count !== 1) {
    await revokeFamily(grant.familyId);
    throw invalidRefresh("The refresh token has already been used");
  }
  if (grant.user.banned) throw invalidRefresh("This account is banned");
  return issueToken(grant.applicationId, grant.application.clientId, grant.user, grant.scopes, grant.familyId);
}

async function revokeFamily(familyId: string): Promise<void> {
  await db().oAuthGrant.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function revokeGrant(grantId: string): Promise<void> {
  await db().oAuthGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: new Date() } });
}
