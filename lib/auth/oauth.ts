import crypto from "node:crypto";
import { db } from "@/lib/db";
import { authenticateWithinLimits } from "@/lib/auth/authenticate-user";
import { checkFailureLock, checkLimit, countAttempt, LIMITS, LOCKS, recordFailure } from "@/lib/auth/rate-limit";
import { clientAddress } from "@/lib/net/peer-address";
import { AppError, type ErrorCode } from "@/lib/errors";
import { sessionUser } from "@/lib/auth/browser-session";
import { issueToken, refreshGrant, type TokenResponse } from "./tokens";

const oauthError = (code: ErrorCode, error: string, description: string) =>
  new AppError(code, description, { error, error_description: description });

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** Requested scopes must equal the application's exactly (as a set); none requested means the application's. */
function grantedScopes(appScopes: string[], requested: string | undefined): string[] {
  if (!requested) return appScopes;
  const want = [...new Set(requested.trim().split(/\s+/))].sort();
  const have = [...new Set(appScopes)].sort();
  if (want.length !== have.length || want.some((s, i) => s !== have[i])) {
    throw oauthError(
      "invalid",
      "invalid_scope",
      `Requested scopes '${want.join(" ")}' do not match the application's scopes '${have.join(" ")}'`,
    );
  }
  return appScopes;
}

function secretMatches(secret: string, hash: string | null): boolean {
  if (!hash) return false;
  const a = Buffer.from(crypto.createHash("sha256").update(secret).digest("hex"));
  const b = Buffer.from(hash);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** POST /oauth/token: password (first-party apps; credentials or the signed-in session), client_credentials, refresh_token. */
export async function exchangeToken(req: Request, body: Record<string, unknown>): Promise<TokenResponse> {
  const grantType = str(body.grant_type);
  if (!grantType) throw oauthError("bad_request", "invalid_request", "grant_type is required");
  const clientId = str(body.client_id);
  if (grantType === "refresh_token") {
    const refresh = str(body.refresh_token);
    if (!refresh) throw oauthError("bad_request", "invalid_request", "refresh_token is required");
    return refreshGrant(refresh, clientId);
  }
  if (grantType !== "password" && grantType !== "client_credentials") {
    throw oauthError("bad_request", "unsupported_grant_type", `grant_type '${grantType}' is not supported`);
  }
  if (!clientId) throw oauthError("unauthorized", "invalid_client", "client_id is required");
  const app = await db().oAuthApplication.findUnique({ where: { clientId }, include: { owner: true } });
  if (!app) throw oauthError("unauthorized", "invalid_client", "Unknown client_id");
  const scopes = grantedScopes(app.scopes, str(body.scope));

  if (grantType === "client_credentials") {
    // Guessing a secret is limited like guessing a password: failures per application and per address.
    // An address that failed too often is locked out of this application (and, across applications, of
    // all of them); the owner's own address is not (lib/auth/rate-limit.ts, FailureLock).
    const address = clientAddress(req);
    await checkFailureLock(LOCKS.clientSecret, app.clientId, address);
    await checkLimit(LIMITS.clientSecretFailuresPerAddress, address);
    if (!secretMatches(str(body.client_secret) ?? "", app.secretHash)) {
      await recordFailure(LOCKS.clientSecret, app.clientId, address);
      await countAttempt(LIMITS.clientSecretFailuresPerAddress, address);
      throw oauthError("unauthorized", "invalid_client", "Client authentication failed");
    }
    if (!app.owner || app.owner.banned)
      throw oauthError("invalid", "unauthorized_client", "This application has no active owner to act as");
    return issueToken(app.id, app.clientId, app.owner, scopes);
  }

  if (!app.firstParty)
    throw oauthError("invalid", "unauthorized_client", "The password grant is only available to first-party applications");
  const login = str(body.login) ?? str(body.username);
  const password = str(body.password);
  if (login || password) {
    const user = await authenticateWithinLimits(login ?? "", password ?? "", clientAddress(req));
    if (!user) throw oauthError("bad_request", "invalid_grant", "Invalid login or password");
    return issueToken(app.id, app.clientId, user, scopes);
  }
  // The official clients sign in through /users/sign_in first and then ask for a token with the cookie.
  const user = await sessionUser(req);
  if (!user || user.banned) throw oauthError("unauthorized", "invalid_grant", "Not signed in: send login and password, or sign in first");
  return issueToken(app.id, app.clientId, user, scopes);
}
