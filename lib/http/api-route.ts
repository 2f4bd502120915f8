import { requireTokenScope, resolveActor, type Actor } from "@/lib/auth/actor";
import type { RouteScope } from "@/lib/auth/scopes";
import { AppError } from "@/lib/errors";
import { withCors } from "./cors";
import { errorResponse, JSONAPI_TYPE } from "./respond";
import { declareScope } from "./route-scope";

export interface ApiContext {
  req: Request;
  url: URL;
  params: Record<string, string>;
  actor(): Promise<Actor>;
}

type RouteParams = { params: Promise<Record<string, string | string[]>> };
export type ApiHandler = (ctx: ApiContext) => Promise<Response>;

const ACCEPT = /application\/vnd\.api\+json\s*;\s*version\s*=\s*1\b/i;
const WRITE_TYPES = /^(application\/json|application\/vnd\.api\+json)\b/i;

/** What a route declares besides its handler: the OAuth scope a bearer token needs (lib/http/route-scope.ts). */
export interface RouteOptions {
  scope: RouteScope;
}

type Handler = (req: Request, route?: RouteParams) => Promise<Response>;

/**
 * Wraps every /api handler: the versioned Accept header (404 without it, as the reference platform does),
 * the route's token scope (403 without it), an accepted Content-Type on POST and PUT (415), a lazily
 * resolved actor, and the one error mapper.
 */
export function apiRoute(opts: RouteOptions & { alsoAccepts?: RegExp }, handler: ApiHandler): Handler {
  return declareScope(
    opts.scope,
    (req: Request, route?: RouteParams): Promise<Response> =>
      withCors(req, async () => {
        try {
          if (!ACCEPT.test(req.headers.get("accept") ?? "")) throw new AppError("not_found", "Not Found");
          await requireTokenScope(req, opts.scope);
          const type = req.headers.get("content-type") ?? "";
          if ((req.method === "POST" || req.method === "PUT") && !WRITE_TYPES.test(type) && !opts.alsoAccepts?.test(type)) {
            throw new AppError("unsupported_media_type", "Content-Type must be application/json or application/vnd.api+json");
          }
          const raw = (route?.params ? await route.params : undefined) ?? {};
          const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
          let actor: Promise<Actor> | undefined;
          const res = await handler({ req, url: new URL(req.url), params, actor: () => (actor ??= resolveActor(req)) });
          if (res.headers.get("content-type")?.startsWith("application/json")) res.headers.set("content-type", JSONAPI_TYPE);
          return res;
        } catch (err) {
          return errorResponse(err, JSONAPI_TYPE);
        }
      }),
  );
}

/** The same scope check and error mapping for routes outside /api (OAuth, sign-in, counts) that speak plain JSON. */
export function jsonRoute(opts: RouteOptions, handler: (req: Request, params: Record<string, string>) => Promise<Response>): Handler {
  return declareScope(
    opts.scope,
    (req: Request, route?: RouteParams): Promise<Response> =>
      withCors(req, async () => {
        try {
          await requireTokenScope(req, opts.scope);
          const raw = (route?.params ? await route.params : undefined) ?? {};
          const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
          return await handler(req, params);
        } catch (err) {
          return errorResponse(err);
        }
      }),
  );
}
