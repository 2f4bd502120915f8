// Password reset by email, as the established platform's Devise routes:
// POST /users/password {"user": {"email"}}: mails a link with a token (the same answer whether or not the
// address has an account); PUT /users/password {"user": {reset_password_token, password,
// password_confirmation}}: sets the password (the token works once, for 6 hours) and signs the user in.
import { ensureBrowserSession, signInCookie } from "@/lib/auth/browser-session";
import { requestPasswordReset, resetPassword, ZRequestReset, ZResetPassword } from "@/lib/domain/accounts";
import { jsonRoute } from "@/lib/http/api-route";
import { clientAddress } from "@/lib/net/peer-address";
import { readJsonBody } from "@/lib/http/request";
import { json } from "@/lib/http/respond";
import { serializeFullUser } from "@/lib/resources/users";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = jsonRoute({ scope: "none" }, async (req) => {
  const { user } = ZRequestReset.parse(await readJsonBody(req));
  await requestPasswordReset(user.email, clientAddress(req));
  return json({ message: "If the address belongs to an account, a link to reset its password is on its way." }, 200, {
    "Cache-Control": "no-store",
  });
});

export const PUT = jsonRoute({ scope: "none" }, async (req) => {
  const { user: input } = ZResetPassword.parse(await readJsonBody(req));
  const user = await resetPassword(input);
  const { session } = await ensureBrowserSession(req);
  return json({ users: [serializeFullUser(user)] }, 200, {
    "Set-Cookie": await signInCookie(req, session, user.id),
    "Cache-Control": "no-store",
  });
});

// CORS preflights (lib/http/cors.ts).
export const OPTIONS = corsPreflight;

export const { GET, PATCH, DELETE } = methodNotAllowed(["POST", "PUT"]);
