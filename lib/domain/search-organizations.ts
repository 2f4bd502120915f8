import { db } from "@/lib/db";
import { apiRoute } from "@/lib/http/api-route";
import { pageMeta, parseInclude, parsePaging } from "@/lib/http/jsonapi";
import { collectionRoutes, envelope, listWhere } from "@/lib/http/resource-routes";
import { json } from "@/lib/http/respond";
import { delegate, type BaseRow, type ResourceDef } from "@/lib/http/resource-def";

// Organization search (GET /api/organizations?search=...): organizations whose display name is the query
// (without regard to case) come first; queries of 3 or more characters also match similar names by
// trigram (the gin index on lower(display_name) serves both `%` and `<%`), most similar first. Shorter
// queries match exactly or not at all, as on the reference platform.

/** How many ranked candidates a search considers before visibility and the other filters. */
const MAX_CANDIDATES = 1000;
export const FUZZY_SEARCH_MIN_LENGTH = 3;

/** Ids of organizations matching the query, best match first (visibility is applied by the caller). */
export async function rankedOrganizationIds(query: string): Promise<number[]> {
  const q = query.trim();
  if (!q) return [];
  const fuzzy = q.length >= FUZZY_SEARCH_MIN_LENGTH;
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT id FROM organizations
    WHERE lower(display_name) = lower(${q})
       OR (${fuzzy} AND (lower(display_name) % lower(${q}) OR lower(${q}) <% lower(display_name)))
    ORDER BY lower(display_name) = lower(${q}) DESC,
             greatest(similarity(lower(display_name), lower(${q})), word_similarity(lower(${q}), lower(display_name))) DESC,
             id
    LIMIT ${MAX_CANDIDATES}`;
  return rows.map((r) => r.id);
}

/**
 * GET (list) and POST (create) on /api/organizations: a list with `search` and no `sort` is ordered by
 * relevance; any other list is the generic one (where `search` is a plain filter).
 */
export function organizationCollectionRoutes<R extends BaseRow>(def: ResourceDef<R>) {
  const d = def as unknown as ResourceDef<BaseRow>;
  const routes = collectionRoutes(def);
  const byRelevance = apiRoute(async (ctx) => {
    const actor = await ctx.actor();
    const paging = parsePaging(ctx.url);
    const include = parseInclude(ctx.url, d as never);
    const ranked = await rankedOrganizationIds(ctx.url.searchParams.get("search") ?? "");
    const others = new URL(ctx.url);
    others.searchParams.delete("search");
    const where = { AND: [await listWhere(d, others, actor), { id: { in: ranked } }] };
    const matching = new Set(((await delegate(db(), d).findMany({ where, select: { id: true } })) as { id: number }[]).map((r) => r.id));
    const ids = ranked.filter((id) => matching.has(id));
    const pageIds = ids.slice((paging.page - 1) * paging.pageSize, paging.page * paging.pageSize);
    const found = (await delegate(db(), d).findMany({ where: { id: { in: pageIds } }, include: d.queryInclude })) as BaseRow[];
    const rows = pageIds.map((id) => found.find((r) => r.id === id)).filter((r): r is BaseRow => !!r);
    return json(await envelope(d, rows, actor, include, pageMeta(d.type, ctx.url, paging, ids.length, include)));
  });
  type Handler = typeof routes.GET;
  const GET: Handler = (req, ctx) => {
    const params = new URL(req.url).searchParams;
    return params.get("search")?.trim() && !params.get("sort") ? byRelevance(req, ctx) : routes.GET(req, ctx);
  };
  return { GET, POST: routes.POST };
}
