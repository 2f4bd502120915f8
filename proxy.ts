// Page navigations only: a nonce of their own in the Content-Security-Policy (lib/http/content-security-policy.ts).
// Next reads the nonce from the request's policy header, so the policy is set on the request (Next puts the
// nonce on every script tag it renders) and on the answer (replacing next.config.js's policy without one).
// Every page renders per request already (the root layout reads the session), so nothing stops being static.
//
// The matcher keeps the proxy off everything that is not a page: a proxy on every request cost about 0.3 ms
// and a third of a trivial route's throughput (docs/architecture.md, "CORS inside the wrappers"). The API and
// machine prefixes, the probes /health, /ready and /metrics (each only as a whole path segment, so a page
// such as /users-guide would still match), Next's static files and images, and the router's prefetches
// (RSC payloads, not documents) never reach it; of /users only the account routes (/users, /users/sign_in,
// /users/sign_out, /users/password) are left out, as a volunteer's profile (/users/<login>) is a page. Their
// answers keep next.config.js's policy, which allows no inline script. Browsers' own document prefetches (`Purpose: prefetch`) are not left out: the document
// they fetch is shown later and needs its nonce.
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce } from "@/lib/http/content-security-policy";

/** Auth.js's session cookies (lib/auth/actor.ts reads the same). */
const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"];
/** The areas that need a session (whole path segments). */
const SIGNED_IN_AREAS = ["/lab", "/admin"];
/** A volunteer's own pages: favourites, collections list, recents and settings (a collection's own page may be public). */
const OWN_PAGES = ["/favourites", "/collections", "/recents", "/settings"];
const signInFirst = (pathname: string) =>
  SIGNED_IN_AREAS.some((a) => pathname === a || pathname.startsWith(`${a}/`)) || OWN_PAGES.includes(pathname);

export function proxy(request: NextRequest) {
  // The lab, the admin console and a volunteer's own pages are for signed-in users: a link to one opened
  // without a session goes to sign in, and back.
  const { pathname, search } = request.nextUrl;
  if (signInFirst(pathname) && !SESSION_COOKIES.some((c) => request.cookies.has(c))) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("return_to", `${pathname}${search}`);
    return NextResponse.redirect(signIn);
  }
  const policy = contentSecurityPolicy({ nonce: newNonce(), dev: process.env.NODE_ENV === "development" });
  // Any policy header the client sent is replaced: only ours names the nonce Next renders with.
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      source:
        "/((?!(?:api|oauth|engine|counts|inngest|uploads|auth|unsubscribe|project_preferences|health|ready|metrics|_next/static|_next/image|favicon\\.ico|\\.well-known)(?:/|$)|users(?:/sign_in|/sign_out|/password)?/?$).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};
