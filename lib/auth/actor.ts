import { decode } from "next-auth/jwt";
import { db } from "@/lib/db";
import { unauthorized } from "@/lib/http/api-error";
import { readCookie } from "./session";
import { verifyAccessToken } from "./tokens";
import { keys } from "./keys";

export interface ActorUser {
  id: number;
  login: string;
  displayName: string;
  admin: boolean;
}

/** Who is calling: a user (or nobody) and the OAuth scopes the call carries (null: a browser session, all scopes). */
export interface Actor {
  user: ActorUser | null;
  scopes: string[] | null;
}

export const ANONYMOUS: Actor = { user: null, scopes: [] };

const AUTHJS_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"];

async function loadUser(id: number): Promise<ActorUser | null> {
  const user = await db().user.findUnique({ where: { id }, select: { id: true, login: true, displayName: true, admin: true, banned: true } });
  return user && !user.banned ? { id: user.id, login: user.login, displayName: user.displayName, admin: user.admin } : null;
}

/**
 * A bearer token wins (a session cookie on the same request is ignored, as the official clients send
 * both); otherwise the browser's Auth.js session lets our own pages call the API.
 */
export async function resolveActor(req: Request): Promise<Actor> {
  const header = req.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw unauthorized("Authorization header must be 'Bearer <token>'");
    const { user, scopes } = await verifyAccessToken(match[1]);
    if (user.banned) throw unauthorized("The token's user is banned");
    return { user: { id: user.id, login: user.login, displayName: user.displayName, admin: user.admin }, scopes };
  }
  for (const name of AUTHJS_COOKIES) {
    const raw = readCookie(req, name);
    if (!raw) continue;
    try {
      const payload = await decode({ token: raw, secret: (await keys()).authSecret, salt: name });
      const id = Number(payload?.sub);
      if (Number.isInteger(id) && id > 0) {
        const user = await loadUser(id);
        if (user) return { user, scopes: null };
      }
    } catch {
      // An unreadable or expired session is the same as none.
    }
  }
  return ANONYMOUS;
}

export function hasScope(actor: Actor, scope: string): boolean {
  return actor.scopes === null || actor.scopes.includes(scope);
}
