import { decode } from "next-auth/jwt";
import { pool } from "@/lib/db";
import { forbidden, unauthorized } from "@/lib/errors";
import { readCookie } from "./session";
import { revokedToken, verifyAccessToken, verifyTokenSignature, type TokenClaims } from "./tokens";
import { keys } from "./keys";
import { noteRequestUser } from "@/lib/log/context";
import type { RouteScope } from "./scopes";

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
  /** The browser session (user_sessions row) the call came with, when it came with our pages' session. */
  sessionId?: string;
}

export const ANONYMOUS: Actor = { user: null, scopes: [] };

const AUTHJS_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"];

/** The session's user while the session (its user_sessions row) is on and the user is not banned. */
async function loadSessionUser(id: number, sessionId: string): Promise<ActorUser | null> {
  const { rows } = await pool().query<{ id: number; login: string; display_name: string; admin: boolean; banned: boolean }>(
    `SELECT u.id, u.login, u.display_name, u.admin, u.banned FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.user_id = $2`,
    [sessionId, id],
  );
  const user = rows[0];
  return user && !user.banned ? { id: user.id, login: user.login, displayName: user.display_name, admin: user.admin } : null;
}

/**
 * A bearer token wins (a session cookie on the same request is ignored, as the official clients send
 * both); otherwise the browser's Auth.js session lets our own pages call the API.
 */
export async function resolveActor(req: Request): Promise<Actor> {
  const token = bearerToken(req);
  if (token) {
    const { user, scopes } = await verifyAccessToken(token);
    return grantActor(
      { revoked_at: null, id: user.id, login: user.login, display_name: user.displayName, admin: user.admin, banned: user.banned },
      scopes,
    );
  }
  for (const name of AUTHJS_COOKIES) {
    const raw = readCookie(req, name);
    if (!raw) continue;
    try {
      const payload = await decode({ token: raw, secret: (await keys()).authSecret, salt: name });
      const id = Number(payload?.sub);
      const sessionId = payload?.sid;
      if (Number.isInteger(id) && id > 0 && typeof sessionId === "string") {
        const user = await loadSessionUser(id, sessionId);
        if (user) {
          noteRequestUser(user.id);
          return { user, scopes: null, sessionId };
        }
      }
    } catch {
      // An unreadable or expired session is the same as none.
    }
  }
  return ANONYMOUS;
}

/** A token's grant and its user as read from the database (oauth_grants joined with users), or undefined when there is no such grant. */
export interface GrantRow {
  revoked_at: Date | string | null;
  id: number;
  login: string;
  display_name: string;
  admin: boolean;
  banned: boolean;
}

/** The actor a bearer token stands for, given its grant's row: 401 when the grant is unknown or revoked, or its user banned. */
export function grantActor(row: GrantRow | null | undefined, scopes: string[]): Actor {
  if (!row || row.revoked_at) throw revokedToken();
  if (row.banned) throw unauthorized("The token's user is banned");
  return { user: { id: row.id, login: row.login, displayName: row.display_name, admin: row.admin }, scopes };
}

/**
 * The caller, with a bearer token's grant left to check: a route on the hot path (classification create)
 * checks it inside its own SQL statement instead of a query of its own, then makes the actor with grantActor.
 * Without a bearer token (carrying `scope`, when one is named), the actor as resolveActor resolves it.
 */
export type Caller = { actor: Actor; claims?: undefined } | { claims: TokenClaims; actor?: undefined };

export async function resolveCaller(req: Request, scope?: string): Promise<Caller> {
  const token = bearerToken(req);
  if (token) {
    const claims = await verifyTokenSignature(token);
    // A token without the scope is refused: resolved the usual way first, so a revoked one answers 401.
    if (scope === undefined || claims.scopes.includes(scope)) return { claims };
  }
  return { actor: await resolveActor(req) };
}

/**
 * The actor once the caller's statement has read the grant (the row of grantSql, null when the statement
 * had no grant to check or found none): a known caller as it is; a bearer token's by grantActor.
 */
export function callerActor(caller: Caller, grant: GrantRow | null | undefined): Actor {
  return caller.actor ?? grantActor(grant, caller.claims.scopes);
}

/** The Authorization header's bearer token, null without the header; 401 when it is not 'Bearer <token>'. */
function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw unauthorized("Authorization header must be 'Bearer <token>'");
  return match[1];
}

export function hasScope(actor: Actor, scope: string): boolean {
  return actor.scopes === null || actor.scopes.includes(scope);
}

/**
 * A route's declared scope, checked before the route does anything (lib/http/route-scope.ts): a bearer
 * token without it is refused with 403 once the token is known to be good (a revoked token, or a banned
 * user's, answers 401 as anywhere else). A call without a token passes: a browser session carries every
 * scope, and what an anonymous caller may do is the route's to decide (most writes answer 401).
 */
export async function requireTokenScope(req: Request, scope: RouteScope): Promise<void> {
  if (scope === "none") return;
  const token = bearerToken(req);
  if (!token) return;
  // The signature is verified once per token (a cache): a call with the scope pays nothing more here.
  if ((await verifyTokenSignature(token)).scopes.includes(scope)) return;
  await resolveActor(req);
  throw forbidden(`This token lacks the '${scope}' scope`);
}
