import { db } from "@/lib/db";
import { rankedOrganizationIds } from "@/lib/domain/search-organizations";
import { apiRoute } from "@/lib/http/api-route";
import { pageMeta, parseInclude, parsePaging } from "@/lib/http/jsonapi";
import { type BaseRow, delegate, type ResourceDef } from "@/lib/http/resource-def";
import { collectionRoutes, envelope, listWhere } from "@/lib/http/resource-routes";
import { json } from "@/lib/http/respond";
import { declareScope } from "@/lib/http/route-scope";

/**
 * GET (list) and POST (create) on /api/organizations: a list with `search` and no `sort` is ordered by
 * relevance; any other list is the generic one (where `search` is a plain filter).
 */
export function organizationCollectionRoutes<R extends BaseRow>(def: ResourceDef<R>) {
  const d = def as unknown as ResourceDef<BaseRow>;
  const routes = collectionRoutes(def);
  const byRelevance = apiRoute({ scope: d.tokenScopes.read }, async (ctx) => {
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
  // Either list checks the resource's read scope.
  const GET: Handler = declareScope(d.tokenScopes.read, (req, ctx) => {
    const params = new URL(req.url).searchParams;
    return params.get("search")?.trim() && !params.get("sort") ? byRelevance(req, ctx) : routes.GET(req, ctx);
  });
  return { GET, POST: routes.POST };
}
