import type { ZodType } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { RouteScope, Scope } from "@/lib/auth/scopes";
import type { Tx, Where } from "@/lib/db/types";
import type { Action } from "@/lib/policies/action";

/** The subset of a Prisma model delegate the generic layer uses. */
export interface Delegate {
  findMany(args: object): Promise<unknown[]>;
  findFirst(args: object): Promise<unknown>;
  count(args: object): Promise<number>;
}

export interface BaseRow {
  id: number;
  updatedAt: Date;
}

export type LinkValue = string | string[] | null | { id: string; href?: string; type: string; display_name?: string };
export interface SerializedRecord {
  id: string;
  href?: string;
  links: Record<string, LinkValue | Record<string, unknown>>;
  [attribute: string]: unknown;
}

export interface LinkTemplate {
  href: string;
  type: string;
}

/**
 * What an answer left out to stay bounded, gathered into its `meta.truncated` (lib/http/jsonapi.ts) with
 * where to read the rest.
 */
export interface Truncations {
  /** Record `recordId`'s link list `key` (`<type>.<link>`, e.g. "collections.subjects") holds only its first `perRecord` ids. */
  linkList(key: string, recordId: number, perRecord: number, href: string): void;
}

/** The caps of an include (lib/http/jsonapi.ts buildLinked applies them to whatever a loader answers). */
export interface IncludeLimits {
  /** Linked records per primary record. */
  perRecord: number;
  /** Linked records of this include in the whole answer. */
  perResponse: number;
  truncations: Truncations;
}

export interface LoadedLinked {
  record: SerializedRecord;
  parentIds: number[];
}

/**
 * An includable link: loads the linked records of a page of rows in one query. A loader whose links can be
 * many (a collection's subjects) applies `limits` itself, reading no more than it answers, and names the
 * rows whose lists it cut; the others answer everything and the generic layer cuts.
 */
export interface IncludeDef<R> {
  type: string;
  load(rows: R[], actor: Actor, limits: IncludeLimits): Promise<LoadedLinked[] | { linked: LoadedLinked[]; cut: number[] }>;
}

export interface WriteContext {
  actor: Actor;
  tx: Tx;
}

/**
 * A JSON-API resource as data: what it stores, who sees it, how it serialises, what it accepts.
 * lib/http/resource-routes.ts turns one of these into route handlers.
 */
export interface ResourceDef<R extends BaseRow = BaseRow> {
  /** Plural wire name and envelope key, e.g. "projects". */
  type: string;
  /** Table name, used to lock a row for conditional writes. */
  table: string;
  /**
   * The OAuth scope a bearer token needs on this resource's routes (lib/http/route-scope.ts): `write` for
   * create, update, delete and links; `read` for lists and shows ("none": any token, or none, may read
   * what its user may see).
   */
  tokenScopes: { read: RouteScope; write: Scope };
  /** Prisma delegate name on the client, e.g. "project". */
  model: string;
  /** Prisma `include` that serialize() needs. */
  queryInclude?: object;
  serialize(row: R, actor: Actor): SerializedRecord;
  linkTemplates: Record<string, LinkTemplate>;
  includes?: Record<string, IncludeDef<R>>;
  /** Query parameter → where clause. */
  filters?: Record<string, (value: string, actor: Actor) => Where | Promise<Where>>;
  /** List parameters applied when a list request does not give them (the reference platform's defaults, e.g. language=en). */
  listDefaults?: Record<string, string>;
  /**
   * `fields=a,b` answers a sparse fieldset (the listed attributes, and id, href and links always), as the
   * established platform does for workflows; other resources take `fields` and answer whole records.
   */
  sparseFields?: boolean;
  /**
   * Lists that can be walked to their end by id (classifications, subjects, set member subjects): `last_id=N`
   * answers the records after N in id order, and when a page is in id order its next_href carries the
   * page's last id instead of a page number, so following next_href never pays for an offset.
   */
  keyset?: boolean;
  /**
   * The exact size of a list request's scope from a counter the database keeps (meta count_source
   * "counter"), or null when no counter answers it. `filters` are the request's filters by the resource's
   * own names (plural aliases folded in; `id` and `last_id` included), and a counter may answer only a
   * scope it counts exactly: no filter beyond the counter's, and a caller who sees every record in it.
   */
  countScope?(filters: Record<string, string>, actor: Actor): Promise<number | null>;
  /** Wire field → Prisma field, for `sort`. */
  sortable: Record<string, string>;
  defaultSort?: string;
  /** Where clause of the records this actor may see (a private record outside it is a 404). */
  readScope(actor: Actor): Where | Promise<Where>;
  /**
   * Where clause of the records this actor may lock for a write and read back in the answer, when wider
   * than readScope (a project owner editing a volunteer's preference settings). Defaults to readScope.
   */
  writeReadScope?(actor: Actor): Where | Promise<Where>;
  /**
   * Completes a serialized record with what needs async work (signed URLs). `written` is true in the
   * answer to a create or an update (where a subject's pending uploads get their upload URLs).
   */
  present?(record: SerializedRecord, row: R, ctx: { actor: Actor; written: boolean; truncations?: Truncations }): Promise<SerializedRecord>;
  /** May this actor do this to a record it can see (403 otherwise)? */
  can(actor: Actor, action: Action, row: R, tx: Tx): boolean | Promise<boolean>;
  create?: { schema: ZodType; perform(ctx: WriteContext, input: never): Promise<number> };
  update?: { schema: ZodType; perform(ctx: WriteContext, row: R, input: never): Promise<void> };
  destroy?: (ctx: WriteContext, row: R) => Promise<void>;
  /** Writable to-many links: POST /<type>/<id>/links/<name>, DELETE /<type>/<id>/links/<name>/<ids>. */
  links?: Record<
    string,
    { add(ctx: WriteContext, row: R, ids: number[]): Promise<void>; remove(ctx: WriteContext, row: R, ids: number[]): Promise<void> }
  >;
}

/** The model's delegate on a client (db() or a transaction). */
export function delegate(client: object, def: { model: string }): Delegate {
  return (client as Record<string, Delegate>)[def.model];
}
