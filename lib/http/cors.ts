// Cross-origin access to the APIs (/api, /oauth/token, /users, /counts, /engine), decided here and applied
// by the route wrappers (withCors) and every route's OPTIONS (corsPreflight). As on the established platform, bearer-token requests may come from any origin (a
// token is not sent by browsers on their own, so another site cannot ride on it); cookie-authenticated
// requests (a browser session) only from our own origin and the origins listed in CORS_ORIGINS, so another
// site cannot act as a signed-in volunteer: such a request is refused (403) before it reaches a route.

import { parseOrigins } from "@/lib/env";
import { declareScope } from "./route-scope";

// A trailing slash names the same path (the established front end asks for /users/sign_in/).
export const CORS_PATHS = /^\/(?:api(?:\/|$)|oauth\/token\/?$|users(?:\/sign_in|\/password)?\/?$|counts(?:\/|$)|engine(?:\/|$))/;
export const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
export const ALLOWED_HEADERS =
  "Authorization, Content-Type, If-Match, If-None-Match, X-CSRF-Token, Accept, Accept-Language, Idempotency-Key, X-Requested-With";
export const EXPOSED_HEADERS = "ETag, X-CSRF-Token, Location, Idempotent-Replayed, Retry-After, Link";
const MAX_AGE = "7200";
// Auth.js's session (our pages) and quorum_session (the official clients' sign-in, which /oauth/token
// turns into a token).
const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token", "quorum_session"];

export interface CorsRequest {
  method: string;
  pathname: string;
  headers: Headers;
}

export type CorsDecision =
  | { kind: "none" } // not a cross-origin request to the APIs: nothing to add
  | { kind: "preflight"; headers: Record<string, string> } // answer 204 with these headers
  | { kind: "refuse"; message: string } // 403: a browser session from an origin not trusted with it
  | { kind: "headers"; headers: Record<string, string> }; // pass on, adding these headers to the answer

function ownOrigin(origin: string, headers: Headers, publicUrl: string | undefined): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const served = (headers.get("x-forwarded-host") ?? headers.get("host") ?? "").split(",")[0].trim();
  if (host === served) return true;
  if (publicUrl) {
    try {
      return new URL(publicUrl).origin === new URL(origin).origin;
    } catch {
      return false;
    }
  }
  return false;
}

function hasSessionCookie(headers: Headers): boolean {
  const cookie = headers.get("cookie");
  if (!cookie) return false;
  return cookie.split(";").some((c) => {
    const name = c.split("=")[0].trim();
    return SESSION_COOKIES.some((s) => name === s || name.startsWith(`${s}.`));
  });
}

export function corsDecision(req: CorsRequest, trusted: Set<string>, publicUrl?: string): CorsDecision {
  if (!CORS_PATHS.test(req.pathname)) return { kind: "none" };
  const origin = req.headers.get("origin");
  if (!origin || origin === "null" || ownOrigin(origin, req.headers, publicUrl)) {
    // Same origin (or not a browser): nothing to allow. An opaque "null" origin gets no credentials.
    if (origin !== "null") return { kind: "none" };
  }
  const withCookies = origin !== "null" && trusted.has(origin!);
  const base: Record<string, string> = withCookies
    ? { "Access-Control-Allow-Origin": origin!, "Access-Control-Allow-Credentials": "true", Vary: "Origin" }
    : { "Access-Control-Allow-Origin": "*" };
  if (req.method === "OPTIONS") {
    return {
      kind: "preflight",
      headers: {
        ...base,
        "Access-Control-Allow-Methods": ALLOWED_METHODS,
        "Access-Control-Allow-Headers": ALLOWED_HEADERS,
        "Access-Control-Max-Age": MAX_AGE,
      },
    };
  }
  const bearer = /^bearer\s/i.test(req.headers.get("authorization") ?? "");
  if (!withCookies && !bearer && hasSessionCookie(req.headers)) {
    return {
      kind: "refuse",
      message: `Requests signed in with a browser session are not accepted from ${origin}; use a bearer token (or list the origin in CORS_ORIGINS)`,
    };
  }
  return { kind: "headers", headers: { ...base, "Access-Control-Expose-Headers": EXPOSED_HEADERS } };
}

let trustedOrigins: Set<string> | undefined;

/**
 * Applies the decision around a route's own work (the API wrappers call it, so no separate proxy runs on
 * every request): a preflight is answered here, a refused browser session is a 403 JSON error, and a
 * cross-origin answer gets its CORS headers.
 */
export async function withCors(req: Request, run: () => Promise<Response>): Promise<Response> {
  trustedOrigins ??= parseOrigins(process.env.CORS_ORIGINS);
  const decision = corsDecision(
    { method: req.method, pathname: new URL(req.url).pathname, headers: req.headers },
    trustedOrigins,
    process.env.PUBLIC_URL,
  );
  if (decision.kind === "preflight") return new Response(null, { status: 204, headers: decision.headers });
  if (decision.kind === "refuse") {
    return new Response(JSON.stringify({ errors: [{ message: decision.message }] }), {
      status: 403,
      headers: { "content-type": "application/json; charset=utf-8", "Access-Control-Allow-Origin": "*" },
    });
  }
  const res = await run();
  // Vary is added to, never replaced: an answer that varies by Authorization or Cookie must keep saying so.
  if (decision.kind === "headers")
    for (const [k, v] of Object.entries(decision.headers)) k === "Vary" ? res.headers.append(k, v) : res.headers.set(k, v);
  return res;
}

/** OPTIONS of every API route: a CORS preflight, or (same origin) the methods there are. */
export const corsPreflight = declareScope(
  "none",
  (req: Request): Promise<Response> =>
    withCors(req, async () => new Response(null, { status: 204, headers: { Allow: "GET, POST, PUT, PATCH, DELETE, OPTIONS" } })),
);
