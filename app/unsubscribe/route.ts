// POST /unsubscribe {email}: turns off newsletter email for that address; empty 200.
import { z } from "zod";
import { unsubscribeEmail } from "@/lib/domain/accounts";
import { jsonRoute } from "@/lib/http/api-route";
import { readFormOrJson } from "@/lib/http/request";
import { methodNotAllowed } from "@/lib/http/missing-routes";

const ZBody = z.object({ email: z.email("email is invalid") });

export const POST = jsonRoute({ scope: "none" }, async (req) => {
  const { email } = ZBody.parse(await readFormOrJson(req));
  // The answer is the same whether or not the address is known, so it reveals no accounts.
  await unsubscribeEmail(email);
  return new Response(null, { status: 200 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
