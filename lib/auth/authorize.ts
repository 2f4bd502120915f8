import { db } from "@/lib/db";
import { resolveActor } from "./actor";
import { sessionUser } from "@/lib/auth/browser-session";
import { issueToken } from "./tokens";

// GET /oauth/authorize: the implicit grant (response_type=token) for first-party applications, as the
// established platform's front ends sign in: a signed-in browser is sent back to the application's
// registered redirect_uri with the token in the fragment; a browser not signed in goes through the sign-in
// page first and comes back here. There is no consent screen, so third-party applications cannot use it.

export type AuthorizeOutcome =
  | { kind: "error"; status: number; error: string; description: string } // answered here (no trusted redirect_uri)
  | { kind: "redirect"; location: string };

function fragment(params: Record<string, string | undefined>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v!)}`)
    .join("&");
}

function sameUri(a: string, b: string): boolean {
  if (a === b) return true;
  if (!URL.canParse(a) || !URL.canParse(b)) return false;
  return new URL(a).href === new URL(b).href;
}

export async function authorize(req: Request): Promise<AuthorizeOutcome> {
  const url = new URL(req.url);
  const q = (k: string) => url.searchParams.get(k) ?? undefined;
  const clientId = q("client_id");
  const redirectUri = q("redirect_uri");
  const state = q("state");
  if (!clientId) return { kind: "error", status: 400, error: "invalid_request", description: "client_id is required" };
  const app = await db().oAuthApplication.findUnique({ where: { clientId } });
  if (!app) return { kind: "error", status: 401, error: "invalid_client", description: "Unknown client_id" };
  // Only a registered redirect_uri may receive anything (else an attacker's page would get the token):
  // the same URI, compared as URLs (an origin with or without its "/" is one URI), never a prefix.
  const target = redirectUri ?? (app.redirectUris.length === 1 ? app.redirectUris[0] : undefined);
  if (!target || !app.redirectUris.some((registered) => sameUri(registered, target))) {
    return {
      kind: "error",
      status: 400,
      error: "invalid_redirect_uri",
      description: "redirect_uri must be one the application registered",
    };
  }
  const back = (params: Record<string, string | undefined>) => ({
    kind: "redirect" as const,
    location: `${target}#${fragment({ ...params, state })}`,
  });
  if (q("response_type") !== "token")
    return back({ error: "unsupported_response_type", error_description: "Only response_type=token (the implicit grant) is supported" });
  if (!app.firstParty)
    return back({ error: "unauthorized_client", error_description: "The implicit grant is only available to first-party applications" });
  let scopes = app.scopes;
  const requested = q("scope");
  if (requested) {
    const want = [
      ...new Set(
        requested
          .trim()
          .split(/[\s,]+/)
          .filter(Boolean),
      ),
    ];
    if (want.some((s) => !app.scopes.includes(s)))
      return back({
        error: "invalid_scope",
        error_description: `The application may not ask for '${want.filter((s) => !app.scopes.includes(s)).join(" ")}'`,
      });
    scopes = want;
  }

  const actor = await resolveActor(new Request(req.url, { headers: { cookie: req.headers.get("cookie") ?? "" } }));
  const user = actor.user ? await db().user.findUnique({ where: { id: actor.user.id } }) : await sessionUser(req);
  if (!user || user.banned) {
    const returnTo = `${url.pathname}${url.search}`;
    return { kind: "redirect", location: `/sign-in?return_to=${encodeURIComponent(returnTo)}` };
  }
  const token = await issueToken(app.id, app.clientId, user, scopes);
  // No refresh token in the implicit grant (it would sit in the browser's history).
  return back({ access_token: token.access_token, token_type: "Bearer", expires_in: String(token.expires_in), scope: token.scope });
}
