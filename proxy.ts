// Next.js proxy (the former middleware) for the API paths: CORS preflights answered here, CORS headers
// added to answers, and browser sessions from untrusted origins refused (lib/http/cors.ts decides).
import { NextResponse, type NextRequest } from "next/server";
import { corsDecision, parseOrigins } from "@/lib/http/cors";

const trusted = parseOrigins(process.env.CORS_ORIGINS);

export function proxy(request: NextRequest) {
  const decision = corsDecision({ method: request.method, pathname: request.nextUrl.pathname, headers: request.headers }, trusted, process.env.PUBLIC_URL);
  switch (decision.kind) {
    case "none":
      return NextResponse.next();
    case "preflight":
      return new NextResponse(null, { status: 204, headers: decision.headers });
    case "refuse":
      return NextResponse.json({ errors: [{ message: decision.message }] }, { status: 403, headers: { "Access-Control-Allow-Origin": "*" } });
    case "headers": {
      const res = NextResponse.next();
      for (const [k, v] of Object.entries(decision.headers)) res.headers.set(k, v);
      return res;
    }
  }
}

export const config = {
  matcher: ["/api/:path*", "/oauth/token", "/users", "/users/sign_in", "/users/password", "/counts/:path*", "/engine/:path*"],
};
