// GET /api/translations (filters translated_type, translated_id, language) and POST (a translation in a
// language other than the record's primary one; translated_type and translated_id may also come as query
// parameters, as the established platform's clients send them). See lib/resources/translations.ts.
import { resolveActor } from "@/lib/auth/actor";
import { collectionRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { declareScope } from "@/lib/http/route-scope";
import { parseBoundedJson } from "@/lib/text/json-depth";
import { readBodyText } from "@/lib/http/request";
import { parseIdList } from "@/lib/text/params";
import { errorResponse, JSONAPI_TYPE } from "@/lib/http/respond";
import { parseTranslatedType, syncPrimaryTranslation, translations } from "@/lib/resources/translations";

const routes = collectionRoutes(translations);
type Handler = typeof routes.GET;

// Each hands the request on to the list or the create, which check the scopes (translations.tokenScopes).
export const GET: Handler = declareScope(translations.tokenScopes.read, async (req, ctx) => {
  const q = new URL(req.url).searchParams;
  // The primary language's row is the record's current strings: written before it is listed.
  if (q.get("translated_type") && q.get("translated_id")) {
    try {
      const type = parseTranslatedType(q.get("translated_type"));
      const actor = await resolveActor(req);
      for (const id of parseIdList(q.get("translated_id")!, "translated_id").slice(0, 100)) await syncPrimaryTranslation(type, id, actor);
    } catch {
      // A bad filter or token is answered by the list itself (422/401), with the same message.
    }
  }
  return routes.GET(req, ctx);
});

export const POST: Handler = declareScope(translations.tokenScopes.write, async (req, ctx) => {
  const q = new URL(req.url).searchParams;
  if (!q.get("translated_type") && !q.get("translated_id")) return routes.POST(req, ctx);
  let text: string;
  try {
    text = await readBodyText(req);
  } catch (err) {
    return errorResponse(err, JSONAPI_TYPE); // 413
  }
  // Not JSON, or nested too deeply to send on (JSON.stringify would overflow): the list's own parser
  // answers it (400) with its usual message.
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return routes.POST(new Request(req.url, { method: "POST", headers: req.headers, body: text }), ctx);
  const body = parsed.value;
  const record = (body as { translations?: Record<string, unknown> })?.translations;
  if (record && typeof record === "object" && !Array.isArray(record)) {
    for (const k of ["translated_type", "translated_id"]) if (q.get(k) && record[k] === undefined) record[k] = q.get(k);
  }
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  return routes.POST(new Request(req.url, { method: "POST", headers, body: JSON.stringify(body) }), ctx);
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
