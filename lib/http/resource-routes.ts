import { z } from "zod";
import { db, readDb } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { delegate, type BaseRow, type ResourceDef } from "@/lib/http/resource-def";
import type { Action } from "@/lib/policies/action";
import type { Tx, Where } from "@/lib/db/types";
import { AppError, forbidden, notFound, unauthorized, unprocessable } from "@/lib/errors";
import { apiRoute, type ApiContext } from "./api-route";
import {
  buildLinked,
  checkIfMatch,
  ifNoneMatchHits,
  linkTemplates,
  pageMeta,
  parseInclude,
  parsePaging,
  parseSort,
  recordHeaders,
  etagFor,
  TruncationNotes,
  type Paging,
} from "./jsonapi";
import { countList, prismaScopeCounting, splitPage } from "./list-count";
import { readJsonBody } from "./request";
import { parseIdList, parseIdValue, parsePathId } from "@/lib/text/params";
import { json } from "./respond";

type AnyDef = ResourceDef<BaseRow>;

// Parameters every list takes. `http_cache`, `cards` and `admin` are the established platform's response
// modes that the clients send; here they change nothing (every answer is cacheable with its ETag, a card is
// the full record, an admin sees everything anyway). `fields` is a sparse fieldset where the resource says
// so (sparseFields) and ignored elsewhere, as there; `published` asks for a workflow's published version,
// which here is always the one answered.
const GENERIC_PARAMS = new Set(["page", "page_size", "sort", "include", "http_cache", "id", "cards", "admin", "fields", "published"]);

/**
 * The filter a list parameter names, by the resource's own name: its own, or its plural alias as the
 * established platform takes every filter (`ids`, `project_ids`, `subject_set_ids`).
 */
function filterName(def: AnyDef, name: string): string | undefined {
  const own = (n: string) => (def.filters && Object.hasOwn(def.filters, n) ? n : undefined);
  if (name === "ids") return "id";
  return own(name) ?? (name.endsWith("s") ? own(name.slice(0, -1)) : undefined);
}

function filterNamed(def: AnyDef, name: string): ((value: string, actor: Actor) => Where | Promise<Where>) | "id" | undefined {
  const canonical = filterName(def, name);
  return canonical === "id" ? "id" : canonical ? def.filters![canonical] : undefined;
}

/**
 * The filters a list request gives (by the resource's own names; `id` and `last_id` too), for a counter to
 * decide whether it counts exactly that scope; null when one is given twice (both apply, and no counter
 * knows their intersection). Parameters that do not narrow the scope (paging, sort, include) are left out.
 */
export function scopeFilters(def: AnyDef, url: URL): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (value === "") continue;
    const key = name === "id" || (def.keyset && name === "last_id") ? name : GENERIC_PARAMS.has(name) ? undefined : filterName(def, name);
    if (!key) continue;
    if (Object.hasOwn(out, key)) return null;
    out[key] = value;
  }
  return out;
}

function isIdAscending(orderBy: Record<string, "asc" | "desc">[]): boolean {
  return orderBy.length === 1 && orderBy[0].id === "asc";
}

/**
 * A keyset list's paging hrefs, as the established platform's add_last_id_paging_hrefs: next_href carries
 * the page's last id (and no page), previous_href the last_id this page was asked after.
 */
function keysetHrefs(meta: Record<string, unknown>, url: URL, lastId: string | null, rows: BaseRow[], more: boolean): void {
  const href = (id: string | number) => {
    const q = new URLSearchParams(url.searchParams);
    q.delete("http_cache");
    q.delete("page");
    q.set("last_id", String(id));
    return `${url.pathname.replace(/^\/api/, "")}?${q.toString()}`;
  };
  meta.next_href = more ? href(rows[rows.length - 1].id) : null;
  if (lastId) meta.previous_href = href(lastId);
}

/** `fields=a,b` on a resource that takes it: each record keeps the listed attributes, id, href and links. */
export function sparseFieldset(
  def: { sparseFields?: boolean },
  url: URL,
): ((record: Record<string, unknown>) => Record<string, unknown>) | null {
  const raw = url.searchParams.get("fields");
  if (!def.sparseFields || !raw) return null;
  const keep = new Set([
    "id",
    "href",
    "links",
    ...raw
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean),
  ]);
  return (record) => Object.fromEntries(Object.entries(record).filter(([k]) => keep.has(k)));
}

/** The list request's URL with the resource's default parameters filled in where the request gives none. */
export function withListDefaults(url: URL, defaults: Record<string, string> | undefined): URL {
  if (!defaults) return url;
  const out = new URL(url);
  for (const [name, value] of Object.entries(defaults)) if (!out.searchParams.get(name)) out.searchParams.set(name, value);
  return out;
}

/**
 * The where clause of a list request: visibility AND every filter given. A parameter that is neither a
 * filter of the resource nor a generic one is a 422 naming it: a misspelt filter must not answer
 * everything.
 */
export async function listWhere(def: AnyDef, url: URL, actor: Actor): Promise<Where> {
  const and: Where[] = [await def.readScope(actor)];
  const ids = url.searchParams.get("id");
  if (ids) and.push({ id: { in: parseIdList(ids, "id") } });
  const lastId = def.keyset ? url.searchParams.get("last_id") : null;
  if (lastId) and.push({ id: { gt: parseIdValue(lastId, "last_id") } });
  for (const [name, value] of url.searchParams) {
    if (GENERIC_PARAMS.has(name) || (def.keyset && name === "last_id")) continue;
    const filter = filterNamed(def, name);
    if (filter === "id") {
      if (value !== "") and.push({ id: { in: parseIdList(value, name) } });
      continue;
    }
    if (!filter) {
      const known = Object.keys(def.filters ?? {}).sort();
      throw unprocessable(
        `Unknown filter '${name}' for ${def.type}; filters: ${known.length ? known.join(", ") : "none"} (and ${[...GENERIC_PARAMS].join(", ")})`,
      );
    }
    if (value !== "") and.push(await filter(value, actor));
  }
  return { AND: and };
}

export async function findVisible<R extends BaseRow>(
  def: ResourceDef<R>,
  id: number,
  actor: Actor,
  client: object = db(),
  forWrite = false,
): Promise<R> {
  const scope = forWrite && def.writeReadScope ? await def.writeReadScope(actor) : await def.readScope(actor);
  const row = (await delegate(client, def).findFirst({ where: { AND: [{ id }, scope] }, include: def.queryInclude })) as R | null;
  if (!row) throw notFound(`Could not find ${def.type} with id='${id}'`);
  return row;
}

/**
 * The JSON-API envelope of records: the type's array, link templates, meta when given, linked when included.
 * What was left out to keep the answer bounded (capped includes and link lists) is meta.truncated.
 */
export async function envelope<R extends BaseRow>(
  def: ResourceDef<R>,
  rows: R[],
  actor: Actor,
  include: string[],
  meta?: object,
  written = false,
  url?: URL,
) {
  const truncations = new TruncationNotes();
  const linked = await buildLinked(def, rows, include, actor, truncations);
  const present = def.present;
  const records = rows.map((r) => def.serialize(r, actor));
  const presented = present ? await Promise.all(records.map((rec, i) => present(rec, rows[i], { actor, written, truncations }))) : records;
  const sparse = url ? sparseFieldset(def, url) : null;
  const truncated = truncations.meta();
  const fullMeta = truncated ? { ...meta, truncated } : meta;
  return {
    [def.type]: sparse ? presented.map((r) => sparse(r as Record<string, unknown>)) : presented,
    links: linkTemplates(def as never),
    ...(fullMeta ? { meta: fullMeta } : {}),
    ...(linked ? { linked } : {}),
  };
}

/** One record in the envelope; `written` marks the answer to a create or an update. */
export async function showResponse<R extends BaseRow>(
  def: ResourceDef<R>,
  row: R,
  ctx: ApiContext,
  status = 200,
  written = status === 201,
): Promise<Response> {
  const actor = await ctx.actor();
  const include = parseInclude(ctx.url, def as never);
  const headers = recordHeaders(def.type, row);
  if (status === 200 && ifNoneMatchHits(ctx.req, headers.ETag)) return new Response(null, { status: 304, headers });
  return json(await envelope(def, [row], actor, include, undefined, written, status === 200 ? ctx.url : undefined), status, headers);
}

/** A write needs a signed-in caller (the token's scope was checked by the route: tokenScopes.write). */
export function requireWriter(actor: Actor): asserts actor is Actor & { user: NonNullable<Actor["user"]> } {
  if (!actor.user) throw unauthorized("You must be signed in to do that");
}

/** The body's record under the resource's plural key; any other top-level key is 422. */
export async function recordBody(ctx: ApiContext, type: string): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx.req);
  const extra = Object.keys(body).filter((k) => k !== type);
  if (extra.length) throw unprocessable(`Unknown top-level key(s) ${extra.map((k) => `'${k}'`).join(", ")}; expected '${type}'`);
  const record = body[type];
  if (!record || typeof record !== "object" || Array.isArray(record)) throw unprocessable(`'${type}' must be an object`);
  return record as Record<string, unknown>;
}

/**
 * How a member route finds its record: the path parameter naming its id, and the read of it as the actor
 * may see it (404 otherwise). By default `id` and findVisible; records under a parent's path narrow it.
 */
export interface MemberLocator<R extends BaseRow> {
  idParam: string;
  find(ctx: ApiContext, actor: Actor, client: object, forWrite: boolean): Promise<R>;
}

function defaultLocator<R extends BaseRow>(def: ResourceDef<R>): MemberLocator<R> {
  return {
    idParam: "id",
    find: (ctx, actor, client, forWrite) => findVisible(def, parsePathId(ctx.params.id, def.type), actor, client, forWrite),
  };
}

/** Locks the row for a conditional write, re-reads it, and checks visibility, If-Match and permission. */
async function lockForWrite<R extends BaseRow>(
  def: ResourceDef<R>,
  tx: Tx,
  ctx: ApiContext,
  actor: Actor,
  action: Action,
  ifMatch = true,
  locate: MemberLocator<R> = defaultLocator(def),
): Promise<R> {
  const id = parsePathId(ctx.params[locate.idParam], def.type);
  await tx.$queryRawUnsafe(`SELECT 1 FROM "${def.table}" WHERE id = $1 FOR UPDATE`, id);
  const row = await locate.find(ctx, actor, tx, true);
  if (ifMatch) checkIfMatch(ctx.req, etagFor(def.type, row));
  if (!(await def.can(actor, action, row, tx))) throw forbidden();
  return row;
}

function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(fn, { timeout: 15_000 });
}

/** A list request as the list route reads it: the URL with the resource's defaults, paging, order, includes, where. */
export async function listRequest(def: AnyDef, requested: URL, actor: Actor) {
  const url = withListDefaults(requested, def.listDefaults);
  const paging = parsePaging(url);
  const lastId = def.keyset ? url.searchParams.get("last_id") : null;
  // After last_id the records come in id order (the established platform's classifications do).
  const orderBy = lastId ? [{ id: "asc" as const }] : parseSort(url, def as never);
  const include = parseInclude(url, def as never);
  const where = await listWhere(def, url, actor);
  return { url, paging, lastId, orderBy, include, where };
}

/**
 * The findMany of one page: page_size + 1 rows, so whether another page follows is known from the rows;
 * no OFFSET for a first page (nor for the pages of a last_id walk, which are all first pages).
 */
export function pageQuery(def: AnyDef, paging: Paging, where: Where, orderBy: Record<string, "asc" | "desc">[]) {
  const skip = (paging.page - 1) * paging.pageSize;
  return { where, orderBy, ...(skip ? { skip } : {}), take: paging.pageSize + 1, include: def.queryInclude };
}

/**
 * One page of a list and its paging meta. The count is as cheap as the scope allows
 * (lib/http/list-count.ts): the resource's counter when it answers this scope, else the planner's estimate
 * for large scopes, else exact. `useCounter` is false where the where clause narrows the request's scope
 * further than its filters say (a parent's path).
 */
export async function listPage(
  def: AnyDef,
  url: URL,
  actor: Actor,
  paging: Paging,
  where: Where,
  orderBy: Record<string, "asc" | "desc">[],
  include: string[],
  useCounter = true,
) {
  // A list tolerates a moment's lag: the replica when one is configured (lib/db/index.ts readDb).
  const { rows, more } = splitPage(
    (await delegate(readDb(), def).findMany(pageQuery(def, paging, where, orderBy))) as BaseRow[],
    paging.pageSize,
  );
  const countScope = useCounter ? def.countScope : undefined;
  const filters = countScope ? scopeFilters(def, url) : null;
  const { count, source } = await countList(
    { skipped: (paging.page - 1) * paging.pageSize, rows: rows.length, more },
    {
      counter: countScope && filters ? () => countScope(filters, actor) : undefined,
      ...prismaScopeCounting((client) => delegate(client, def).findMany({ where, select: { id: true } })),
    },
  );
  const meta = pageMeta(def.type, url, paging, count, include, { more, source });
  return { rows, meta, more };
}

/** GET (list) and POST (create) on /api/<type>. */
export function collectionRoutes<R extends BaseRow>(def: ResourceDef<R>) {
  const d = def as unknown as AnyDef;
  return {
    GET: apiRoute({ scope: d.tokenScopes.read }, async (ctx) => {
      const actor = await ctx.actor();
      const { url, paging, lastId, orderBy, include, where } = await listRequest(d, ctx.url, actor);
      const { rows, meta, more } = await listPage(d, url, actor, paging, where, orderBy, include);
      if (d.keyset && isIdAscending(orderBy)) keysetHrefs(meta[d.type], url, lastId, rows, more);
      return json(await envelope(d, rows, actor, include, meta, false, url));
    }),
    POST: apiRoute({ scope: d.tokenScopes.write }, async (ctx) => {
      const create = d.create;
      if (!create) throw new AppError("method_not_allowed", `${d.type} cannot be created through the API`);
      const actor = await ctx.actor();
      requireWriter(actor);
      const input = create.schema.parse(await recordBody(ctx, d.type));
      const id = await transaction((tx) => create.perform({ actor, tx }, input as never));
      const row = await findVisible(d, id, actor);
      return showResponse(d, row, ctx, 201);
    }),
  };
}

/** GET (show), PUT (update) and DELETE on /api/<type>/<id> (or where `locate` finds the record). */
export function memberRoutes<R extends BaseRow>(def: ResourceDef<R>, locate: MemberLocator<R> = defaultLocator(def)) {
  const d = def as unknown as AnyDef;
  const l = locate as unknown as MemberLocator<BaseRow>;
  return {
    GET: apiRoute({ scope: d.tokenScopes.read }, async (ctx) => {
      const actor = await ctx.actor();
      parseInclude(ctx.url, d as never);
      return showResponse(d, await l.find(ctx, actor, db(), false), ctx);
    }),
    PUT: apiRoute({ scope: d.tokenScopes.write }, async (ctx) => {
      const update = d.update;
      if (!update) throw new AppError("method_not_allowed", `${d.type} cannot be edited through the API`);
      const actor = await ctx.actor();
      requireWriter(actor);
      const record = await recordBody(ctx, d.type);
      await transaction(async (tx) => {
        const row = await lockForWrite(d, tx, ctx, actor, "update", true, l);
        await update.perform({ actor, tx }, row, update.schema.parse(record) as never);
      });
      return showResponse(d, await l.find(ctx, actor, db(), true), ctx, 200, true);
    }),
    DELETE: apiRoute({ scope: d.tokenScopes.write }, async (ctx) => {
      const destroy = d.destroy;
      if (!destroy) throw new AppError("method_not_allowed", `${d.type} cannot be deleted through the API`);
      const actor = await ctx.actor();
      requireWriter(actor);
      await transaction(async (tx) => destroy({ actor, tx }, await lockForWrite(d, tx, ctx, actor, "destroy", true, l)));
      return new Response(null, { status: 204 });
    }),
  };
}

const ZLinkIds = z.union([z.array(z.union([z.string(), z.number()])), z.string(), z.number()]);

/** POST /api/<type>/<id>/links/<link> and DELETE /api/<type>/<id>/links/<link>/<ids> (no If-Match). */
export function linkRoutes<R extends BaseRow>(def: ResourceDef<R>) {
  const d = def as unknown as AnyDef;
  const linkOf = (name: string | undefined) => {
    const link = name && d.links && Object.hasOwn(d.links, name) ? d.links[name] : undefined;
    if (!link)
      throw unprocessable(`'${name}' is not a writable link of ${d.type}; writable: ${Object.keys(d.links ?? {}).join(", ") || "none"}`);
    return link;
  };
  return {
    POST: apiRoute({ scope: d.tokenScopes.write }, async (ctx) => {
      const actor = await ctx.actor();
      requireWriter(actor);
      const link = linkOf(ctx.params.link);
      const body = await readJsonBody(ctx.req);
      const extra = Object.keys(body).filter((k) => k !== ctx.params.link);
      if (extra.length || !(ctx.params.link! in body)) throw unprocessable(`Body must be {"${ctx.params.link}": [ids]}`);
      const raw = ZLinkIds.parse(body[ctx.params.link!]);
      const ids = (Array.isArray(raw) ? raw : [raw]).map((v) => parseIdValue(v, ctx.params.link!));
      await transaction(async (tx) => link.add({ actor, tx }, await lockForWrite(d, tx, ctx, actor, "update", false), ids));
      return showResponse(d, await findVisible(d, parsePathId(ctx.params.id, d.type), actor), ctx);
    }),
    DELETE: apiRoute({ scope: d.tokenScopes.write }, async (ctx) => {
      const actor = await ctx.actor();
      requireWriter(actor);
      const link = linkOf(ctx.params.link);
      const ids = parseIdList(ctx.params.ids ?? "", ctx.params.link!);
      await transaction(async (tx) => link.remove({ actor, tx }, await lockForWrite(d, tx, ctx, actor, "update", false), ids));
      return new Response(null, { status: 204 });
    }),
  };
}
