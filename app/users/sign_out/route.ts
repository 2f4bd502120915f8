// DELETE /users/sign_out: ends the browser-style session (its row: a copied cookie no longer works) and
// revokes the bearer token sent with it.
import { verifyAccessToken, revokeGrant } from "@/lib/auth/tokens";
import { clearSessionCookie } from "@/lib/auth/session";
import { cookieMode, requireCsrf, signOutSession } from "@/lib/auth/browser-session";
import { jsonRoute } from "@/lib/http/api-route";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const DELETE = jsonRoute({ scope: "none" }, async (req) => {
  await requireCsrf(req, undefined);
  await signOutSession(req);
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
  if (bearer) {
    const token = await verifyAccessToken(bearer[1]).catch(() => null);
    if (token) await revokeGrant(token.grantId);
  }
  return new Response(null, { status: 204, headers: { "Set-Cookie": clearSessionCookie(cookieMode(req)) } });
});

// CORS preflights (lib/http/cors.ts).
export const OPTIONS = corsPreflight;

export const { GET, POST, PUT, PATCH } = methodNotAllowed(["DELETE"]);
