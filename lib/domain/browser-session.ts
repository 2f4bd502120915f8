import { db } from "@/lib/db";
import { csrfMatches, newCsrfToken, readSession, sessionCookie, type SessionData } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/api-error";

// The official clients' browser-style sign-in: a CSRF token from GET /users/sign_in, then a JSON POST
// carrying it (as authenticity_token or X-CSRF-Token), answered with a signed session cookie.

const isSecure = (req: Request) => new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";

/** The caller's session, or a new one with a fresh CSRF token, and the Set-Cookie that keeps it. */
export async function ensureBrowserSession(req: Request): Promise<{ session: SessionData; cookie: string }> {
  const session = (await readSession(req)) ?? { csrf: newCsrfToken() };
  return { session, cookie: await sessionCookie(session, isSecure(req)) };
}

export async function requireCsrf(req: Request, bodyToken: unknown): Promise<SessionData> {
  const session = await readSession(req);
  const token = typeof bodyToken === "string" ? bodyToken : req.headers.get("x-csrf-token");
  if (!csrfMatches(session, token)) throw new ApiError(422, "Invalid authenticity token: fetch GET /users/sign_in first and send its X-CSRF-Token");
  return session!;
}

export async function signInCookie(req: Request, session: SessionData, userId: number): Promise<string> {
  return sessionCookie({ csrf: session.csrf, uid: userId }, isSecure(req));
}

export async function sessionUser(req: Request) {
  const session = await readSession(req);
  return session?.uid ? db().user.findUnique({ where: { id: session.uid } }) : null;
}
