import { resolveActor } from "@/lib/auth/actor";
import { verifyAccessToken } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import type { User } from "@/lib/generated/prisma/client";
import { unauthorized } from "@/lib/errors";
import { requireCsrf, signedInSession } from "@/lib/auth/browser-session";

/**
 * Who is changing their own account: a bearer token's user (and its grant, which stays valid), else our
 * pages' session, else the official clients' browser session (which must carry its CSRF token); the
 * session named is the one a password change keeps. 401 when nobody is signed in.
 */
export async function currentAccount(req: Request, csrfToken: unknown): Promise<{ user: User; grantId?: string; sessionId?: string }> {
  const header = req.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw unauthorized("Authorization header must be 'Bearer <token>'");
    const token = await verifyAccessToken(match[1]);
    const user = await db().user.findUnique({ where: { id: token.userId } });
    if (!user || user.banned) throw unauthorized("The token's user cannot change this account");
    return { user, grantId: token.grantId };
  }
  const actor = await resolveActor(req);
  if (actor.user) return { user: await db().user.findUniqueOrThrow({ where: { id: actor.user.id } }), sessionId: actor.sessionId };
  const signedIn = await signedInSession(req);
  if (signedIn && !signedIn.user.banned) {
    await requireCsrf(req, csrfToken);
    return signedIn;
  }
  throw unauthorized("Sign in first");
}
