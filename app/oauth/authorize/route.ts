// GET /oauth/authorize: the implicit grant for first-party applications (lib/auth/authorize.ts).
import { authorize } from "@/lib/auth/authorize";
import { jsonRoute } from "@/lib/http/api-route";
import { json } from "@/lib/http/respond";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = jsonRoute({ scope: "none" }, async (req) => {
  const outcome = await authorize(req);
  if (outcome.kind === "error")
    return json(
      { error: outcome.error, error_description: outcome.description, errors: [{ message: outcome.description }] },
      outcome.status,
    );
  return new Response(null, { status: 302, headers: { Location: outcome.location, "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
