// POST /oauth/token: OAuth2 token endpoint (password, client_credentials, refresh_token; JSON or form).
import { exchangeToken } from "@/lib/auth/oauth";
import { jsonRoute } from "@/lib/http/api-route";
import { readFormOrJson } from "@/lib/http/request";
import { json } from "@/lib/http/respond";

export const POST = jsonRoute(async (req) => json(await exchangeToken(req, await readFormOrJson(req)), 200, { "Cache-Control": "no-store" }));
