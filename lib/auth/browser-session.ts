import { db } from "@/lib/db";
import { csrfMatches, newCsrfToken, readSession, sessionCookie, type CookieMode, type SessionData } from "@/lib/auth/session";
import { parseOrigins } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { endSession, startSession } from "@/lib/auth/user-sessions";
import type { User } from "@/lib/generated/prisma/client";

// The official clients' browser-style sign-in: a CSRF token from GET /users/sign_in, then a JSON POST
// carrying it (as authenticity_token or X-CSRF-Token), answered with a signed session cookie.

/**
 * How this request's session cookie is sent: Secure over https; cross-site (SameSite=None) when the
 * request comes from another host that CORS_ORIGINS trusts with cookies (lib/auth/session.ts says why
 * that is safe).
 */
export function cookieMode(req: Request): CookieMode {
  const url = new URL(req.url);
  const secure = url.protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  const origin = req.headers.get("origin");
  if (!origin || origin === "null" || !parseOrigins(process.env.CORS_ORIGINS).has(origin)) return { secure };
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return { secure };
  }
  const served = (req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host).split(",")[0].trim();
  return { secure, crossSite: host !== served };
}

/** The caller's session, or a new one with a fresh CSRF token, and the Set-Cookie that keeps it. */
export async function ensureBrowserSession(req: Request): Promise<{ session: SessionData; cookie: string }> {
  const session = (await readSession(req)) ?? { csrf: newCsrfToken() };
  return { session, cookie: await sessionCookie(session, cookieMode(req)) };
}

export async function requireCsrf(req: Request, bodyToken: unknown): Promise<SessionData> {
  const session = await readSession(req);
  const token = typeof bodyToken === "string" ? bodyToken : req.headers.get("x-csrf-token");
  if (!csrfMatches(session, token))
    throw new AppError("invalid", "Invalid authenticity token: fetch GET /users/sign_in first and send its X-CSRF-Token");
  return session!;
}

/** Signs the browser session in as the user: a new session row (the one it replaces, if any, ends). */
export async function signInCookie(req: Request, session: SessionData, userId: number): Promise<string> {
  if (session.sid) await endSession(session.sid);
  const sid = await startSession(userId);
  return sessionCookie({ csrf: session.csrf, uid: userId, sid }, cookieMode(req));
}

/** The signed-in user of the browser session and the session's id, while its row exists; null otherwise. */
export async function signedInSession(req: Request): Promise<{ user: User; sessionId: string } | null> {
  const session = await readSession(req);
  if (!session?.uid || !session.sid) return null;
  const user = await db().user.findFirst({ where: { id: session.uid, sessions: { some: { id: session.sid } } } });
  return user ? { user, sessionId: session.sid } : null;
}

export async function sessionUser(req: Request): Promise<User | null> {
  return (await signedInSession(req))?.user ?? null;
}

/** Signs the browser session out: its row ends (a copy of the cookie signs in no more). */
export async function signOutSession(req: Request): Promise<void> {
  const session = await readSession(req);
  if (session?.sid) await endSession(session.sid);
}
