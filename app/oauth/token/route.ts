// POST /oauth/token: OAuth2 token endpoint (password, client_credentials, refresh_token; JSON or form).
import { exchangeToken } from "@/lib/auth/oauth";
import { jsonRoute } from "@/lib/http/api-route";
import { readFormOrJson } from "@/lib/http/request";
import { json } from "@/lib/http/respond";
import { corsPreflight } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = jsonRoute({ scope: "none" }, async (req) =>
  json(await exchangeToken(req, await readFormOrJson(req)), 200, { "Cache-Control": "no-store" }),
);

// CORS preflights (lib/http/cors.ts).
export const OPTIONS = corsPreflight;

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
