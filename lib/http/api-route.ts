import { resolveActor, type Actor } from "@/lib/auth/actor";
import { ApiError } from "./api-error";
import { withCors } from "./cors";
import { errorResponse, JSONAPI_TYPE } from "./respond";

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

/**
 * Wraps every /api handler: the versioned Accept header (404 without it, as the reference platform does),
 * an accepted Content-Type on POST and PUT (415), a lazily resolved actor, and the one error mapper.
 */
export function apiRoute(handler: ApiHandler, opts: { alsoAccepts?: RegExp } = {}) {
  return (req: Request, route?: RouteParams): Promise<Response> =>
    withCors(req, async () => {
      try {
        if (!ACCEPT.test(req.headers.get("accept") ?? "")) throw new ApiError(404, "Not Found");
        const type = req.headers.get("content-type") ?? "";
        if ((req.method === "POST" || req.method === "PUT") && !WRITE_TYPES.test(type) && !opts.alsoAccepts?.test(type)) {
          throw new ApiError(415, "Content-Type must be application/json or application/vnd.api+json");
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
    });
}

/** The same error mapping for routes outside /api (OAuth, sign-in, counts) that speak plain JSON. */
export function jsonRoute(handler: (req: Request, params: Record<string, string>) => Promise<Response>) {
  return (req: Request, route?: RouteParams): Promise<Response> =>
    withCors(req, async () => {
      try {
        const raw = (route?.params ? await route.params : undefined) ?? {};
        const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
        return await handler(req, params);
      } catch (err) {
        return errorResponse(err);
      }
    });
}
