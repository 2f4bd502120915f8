// GET /users/sign_in: CSRF token (X-CSRF-Token) and session cookie; POST: sign in with login and password.
import { z } from "zod";
import { authenticateWithinLimits } from "@/lib/auth/authenticate-user";
import { clientAddress } from "@/lib/net/peer-address";
import { ensureBrowserSession, requireCsrf, signInCookie } from "@/lib/auth/browser-session";
import { AppError } from "@/lib/errors";
import { jsonRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/request";
import { json } from "@/lib/http/respond";
import { serializeFullUser } from "@/lib/resources/users";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = jsonRoute({ scope: "none" }, async (req) => {
  const { session, cookie } = await ensureBrowserSession(req);
  const accept = req.headers.get("accept") ?? "";
  // A person who opens this URL in a browser gets the sign-in page.
  if (accept.includes("text/html") && !accept.includes("json")) {
    return new Response(null, { status: 303, headers: { Location: "/sign-in", "Set-Cookie": cookie, "X-CSRF-Token": session.csrf } });
  }
  return json({}, 200, { "Set-Cookie": cookie, "X-CSRF-Token": session.csrf, "Cache-Control": "no-store" });
});

const ZSignIn = z.object({
  authenticity_token: z.string().optional(),
  user: z.object({ login: z.string().max(255), password: z.string().max(1000), remember_me: z.unknown().optional() }),
});

export const POST = jsonRoute({ scope: "none" }, async (req) => {
  const body = ZSignIn.parse(await readJsonBody(req));
  const session = await requireCsrf(req, body.authenticity_token);
  const user = await authenticateWithinLimits(body.user.login, body.user.password, clientAddress(req));
  if (!user) throw new AppError("unauthorized", "Invalid login or password.", { error: "Invalid login or password." });
  return json({ users: [serializeFullUser(user)] }, 200, {
    "Set-Cookie": await signInCookie(req, session, user.id),
    "X-CSRF-Token": session.csrf,
  });
});

// CORS preflights (lib/http/cors.ts).
export const OPTIONS = corsPreflight;

export const { PUT, PATCH, DELETE } = methodNotAllowed(["GET", "POST"]);
