import crypto from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { keys } from "./keys";

// The browser-style session of the official clients' sign-in flow (GET/POST /users/sign_in): a signed
// cookie holding a CSRF token and, once signed in, the user id and the session's row (user_sessions: the
// session lasts while its row does; lib/auth/user-sessions.ts).
export const SESSION_COOKIE = "quorum_session";
const TTL = 14 * 24 * 3600;

export interface SessionData {
  csrf: string;
  uid?: number;
  sid?: string;
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export async function readSession(req: Request): Promise<SessionData | null> {
  const raw = readCookie(req, SESSION_COOKIE);
  if (!raw) return null;
  try {
    const { payload } = await jwtVerify(raw, (await keys()).sessionSecret, { algorithms: ["HS256"] });
    return {
      csrf: String(payload.csrf),
      uid: typeof payload.uid === "number" ? payload.uid : undefined,
      sid: typeof payload.sid === "string" ? payload.sid : undefined,
    };
  } catch {
    return null;
  }
}

export function newCsrfToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/**
 * How the cookie is sent: `crossSite` for a front end on another site that CORS_ORIGINS trusts (the
 * established front end at its own host), which a SameSite=Lax cookie would never reach on its fetches:
 * SameSite=None, which browsers take only with Secure (over https, or from localhost), and Partitioned
 * (CHIPS): kept for that front end's site only, so browsers that block third-party cookies (Chrome's
 * incognito, or by choice) still keep it for the front end's fetches. Another site gains
 * nothing by it: cookie-carrying requests from origins CORS_ORIGINS does not list are refused (403) before
 * any route (lib/http/cors.ts), and the cookie is read by the sign-in flow only, never as API credentials.
 */
export interface CookieMode {
  secure: boolean;
  crossSite?: boolean;
}

const CROSS_SITE = "SameSite=None; Secure; Partitioned";

export async function sessionCookie(data: SessionData, mode: CookieMode): Promise<string> {
  const value = await new SignJWT({ ...data })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(`${TTL}s`)
    .sign((await keys()).sessionSecret);
  const sameSite = mode.crossSite ? CROSS_SITE : `SameSite=Lax${mode.secure ? "; Secure" : ""}`;
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; ${sameSite}; Max-Age=${TTL}`;
}

export function clearSessionCookie(mode: CookieMode = { secure: false }): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; ${mode.crossSite ? CROSS_SITE : "SameSite=Lax"}; Max-Age=0`;
}

export function csrfMatches(session: SessionData | null, token: string | null | undefined): boolean {
  if (!session || !token) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
