import type { ZodType } from "zod";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { delegate, type BaseRow, type ResourceDef, type WriteContext } from "@/lib/http/resource-def";
import type { Tx, Where } from "@/lib/db/types";
import { AppError, notFound } from "@/lib/errors";
import { apiRoute, type ApiContext } from "./api-route";
import { parseInclude, parsePaging, parseSort } from "./jsonapi";
import { parsePathId } from "@/lib/text/params";
import {
  envelope,
  findVisible,
  listPage,
  listWhere,
  memberRoutes,
  recordBody,
  requireWriter,
  showResponse,
  withListDefaults,
} from "./resource-routes";
import { json } from "./respond";

// Resources whose records live under a parent's path, as a project's pages do:
//   GET|POST /api/<parent type>/<parent id>/<segment>, GET|PUT|DELETE .../<segment>/<child id>.
// The same envelope, paging, sort, include, ETag and write checks as resource-routes.ts, with the parent
// as an extra scope: an invisible parent is a 404, a child of another parent is a 404, and paging hrefs
// stay under the parent's path (pageMeta builds them from the request path).

type AnyDef = ResourceDef<BaseRow>;

export interface NestedResource<R extends BaseRow, P extends BaseRow> {
  /** The child resource: serialization, filters, sort, includes, readScope, can, update, destroy. */
  def: ResourceDef<R>;
  /** The parent resource, whose readScope decides whether the path exists at all. */
  parent: ResourceDef<P>;
  /** The child's Prisma field naming its parent, e.g. "projectId". */
  parentField: string;
  /** The route parameter of the child's id, e.g. "page_id" for app/api/projects/[id]/pages/[page_id]. */
  memberParam: string;
  /** Create under a visible parent; `perform` checks the write permission (it may depend on the input). */
  create?: { schema: ZodType; perform(ctx: WriteContext, parent: P, input: never): Promise<number> };
}

function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(fn, { timeout: 15_000 });
}

/** The child named by the path, under the parent named by the path, as the actor may see it (404 otherwise). */
async function findNested<R extends BaseRow>(
  n: NestedResource<R, BaseRow>,
  ctx: ApiContext,
  actor: Actor,
  client: object = db(),
  forWrite = false,
): Promise<R> {
  const parentId = parsePathId(ctx.params.id, n.parent.type);
  const id = parsePathId(ctx.params[n.memberParam], n.def.type);
  const scope: Where = forWrite && n.def.writeReadScope ? await n.def.writeReadScope(actor) : await n.def.readScope(actor);
  const row = (await delegate(client, n.def).findFirst({
    where: { AND: [{ id, [n.parentField]: parentId }, scope] },
    include: n.def.queryInclude,
  })) as R | null;
  if (!row) throw notFound(`Could not find ${n.def.type} with id='${id}'`);
  return row;
}

/** GET (list) and POST (create) on /api/<parent type>/<parent id>/<segment>. */
export function nestedCollectionRoutes<R extends BaseRow, P extends BaseRow>(nested: NestedResource<R, P>) {
  const n = nested as unknown as NestedResource<BaseRow, BaseRow>;
  const d = n.def as AnyDef;
  return {
    GET: apiRoute({ scope: d.tokenScopes.read }, async (ctx) => {
      const actor = await ctx.actor();
      const url = withListDefaults(ctx.url, d.listDefaults);
      const paging = parsePaging(url);
      const orderBy = parseSort(url, d as never);
      const include = parseInclude(url, d as never);
      const parent = await findVisible(n.parent, parsePathId(ctx.params.id, n.parent.type), actor);
      const where = { AND: [await listWhere(d, url, actor), { [n.parentField]: parent.id }] };
      const { rows, meta } = await listPage(d, url, actor, paging, where, orderBy, include, false);
      return json(await envelope(d, rows, actor, include, meta));
    }),
    POST: apiRoute({ scope: d.tokenScopes.write }, async (ctx) => {
      const create = n.create;
      if (!create) throw new AppError("method_not_allowed", `${d.type} cannot be created through the API`);
      const actor = await ctx.actor();
      requireWriter(actor);
      const parentId = parsePathId(ctx.params.id, n.parent.type);
      // A parent the caller cannot see does not exist for them, whatever the body says.
      const parent = await findVisible(n.parent, parentId, actor);
      const input = create.schema.parse(await recordBody(ctx, d.type));
      const id = await transaction((tx) => create.perform({ actor, tx }, parent, input as never));
      const row = await findNested(n, { ...ctx, params: { ...ctx.params, [n.memberParam]: String(id) } }, actor);
      return showResponse(d, row, ctx, 201);
    }),
  };
}

/** GET (show), PUT (update) and DELETE on /api/<parent type>/<parent id>/<segment>/<child id>. */
export function nestedMemberRoutes<R extends BaseRow, P extends BaseRow>(nested: NestedResource<R, P>) {
  const n = nested as unknown as NestedResource<R, BaseRow>;
  return memberRoutes(n.def, {
    idParam: n.memberParam,
    find: (ctx, actor, client, forWrite) => findNested(n, ctx, actor, client, forWrite),
  });
}
