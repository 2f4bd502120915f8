// POST /users: register ({"user": {login, email, password, display_name}}); signs the new user in.
// PUT /users: change one's password ({"user": {current_password, password, password_confirmation}}).
import { z } from "zod";
import { ensureBrowserSession, signInCookie } from "@/lib/auth/browser-session";
import { signUp, ZRegisterUser } from "@/lib/domain/register-user";
import { jsonRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/request";
import { json } from "@/lib/http/respond";
import { serializeFullUser } from "@/lib/resources/users";
import { unprocessable } from "@/lib/errors";
import { clientAddress } from "@/lib/net/peer-address";
import { changePassword, ZChangePassword } from "@/lib/domain/accounts";
import { currentAccount } from "@/lib/domain/current-account";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/missing-routes";

const ZBody = z.strictObject({ user: ZRegisterUser, authenticity_token: z.string().optional() });

export const POST = jsonRoute({ scope: "none" }, async (req) => {
  if (!/json/i.test(req.headers.get("content-type") ?? "")) throw unprocessable("Send the registration as JSON");
  const { user: input } = ZBody.parse(await readJsonBody(req));
  const user = await signUp(input, clientAddress(req));
  const { session } = await ensureBrowserSession(req);
  return json({ users: [serializeFullUser(user)] }, 201, { "Set-Cookie": await signInCookie(req, session, user.id) });
});

export const PUT = jsonRoute({ scope: "user" }, async (req) => {
  const body = ZChangePassword.parse(await readJsonBody(req));
  const { user, grantId, sessionId } = await currentAccount(req, body.authenticity_token);
  const updated = await changePassword(user, body.user, { grantId, sessionId });
  return json({ users: [serializeFullUser(updated)] }, 200, { "Cache-Control": "no-store" });
});

// CORS preflights (lib/http/cors.ts).
export const OPTIONS = corsPreflight;

export const { GET, PATCH, DELETE } = methodNotAllowed(["POST", "PUT"]);
