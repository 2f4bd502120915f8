import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Scope } from "@/lib/auth/scopes";
import { AppError, forbidden } from "@/lib/errors";
import type { NestedResource } from "@/lib/http/nested-routes";
import type { BaseRow, IncludeDef, ResourceDef } from "@/lib/http/resource-def";
import type { Tx, Where } from "@/lib/db/types";
import { sameLanguage, ZLanguageCode } from "@/lib/text/language-code";
import { iso } from "./wire";
import { equalsIgnoringCase } from "@/lib/db/like";

// Text pages of a project or an organization (science case, team, results, about, ...), one per url_key
// and language, served under their parent: /api/projects/<id>/pages[/<page id>] and the same under
// /api/organizations/<id>. Reading follows the parent's visibility; writing needs edit permission on the
// parent, or its translate permission for a page in a language other than the parent's primary language.

export interface PageRow extends BaseRow {
  urlKey: string;
  title: string;
  language: string;
  content: string;
  createdAt: Date;
}

/** A parent as the page routes load it (through the parent resource's readScope). */
export interface PageParent extends BaseRow {
  primaryLanguage: string;
}

export interface PageKind<R extends PageRow> {
  /** Wire type and envelope key: "project_pages". */
  type: string;
  table: string;
  model: string;
  writeScope: Scope;
  /** The parent's wire type ("projects") and its link name on a page ("project"). */
  parentType: string;
  parentLink: string;
  /** The page's Prisma field and relation naming its parent. */
  parentField: string;
  parentRelation: string;
  parentId(row: R): number;
  /** The parent's primary language, loaded with the page by `queryInclude`. */
  primaryLanguage(row: R): string;
  queryInclude: object;
  parentReadScope(actor: Actor): Where;
  canOnParent(actor: Actor, action: "update" | "translate", parentId: number, tx: Tx): Promise<boolean>;
  includes?: Record<string, IncludeDef<R>>;
}

const ZPageFields = {
  url_key: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : undefined) })
    .trim()
    .min(1, "can't be blank")
    .max(255),
  title: z.string().max(255),
  language: ZLanguageCode,
  content: z.string().max(500_000),
};
const ZCreatePage = z.strictObject(ZPageFields).partial().extend({ url_key: ZPageFields.url_key });
const ZUpdatePage = z.strictObject(ZPageFields).partial();
type TCreatePage = z.infer<typeof ZCreatePage>;
type TUpdatePage = z.infer<typeof ZUpdatePage>;

/** The page's default language when a create names none (the column's default, as on the reference platform). */
export const DEFAULT_PAGE_LANGUAGE = "en";

export function serializePage<R extends PageRow>(kind: Pick<PageKind<R>, "type" | "parentType" | "parentLink" | "parentId">, row: R) {
  const parentId = kind.parentId(row);
  return {
    id: String(row.id),
    href: `/${kind.parentType}/${parentId}/pages/${row.id}`,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    url_key: row.urlKey,
    title: row.title,
    language: row.language,
    content: row.content,
    type: kind.type,
    links: { [kind.parentLink]: String(parentId) },
  };
}

/**
 * Editors of the parent write any page; translators write pages in languages other than the parent's
 * primary language (the primary language's text is the parent's own, edited by its editors).
 */
async function mayWritePage<R extends PageRow>(
  kind: PageKind<R>,
  actor: Actor,
  parentId: number,
  primaryLanguage: string,
  language: string,
  tx: Tx,
): Promise<boolean> {
  if (await kind.canOnParent(actor, "update", parentId, tx)) return true;
  return !sameLanguage(language, primaryLanguage) && kind.canOnParent(actor, "translate", parentId, tx);
}

async function ensureKeyFree<R extends PageRow>(
  kind: PageKind<R>,
  tx: Tx,
  parentId: number,
  urlKey: string,
  language: string,
  exceptId?: number,
) {
  const delegate = (tx as unknown as Record<string, { findFirst(args: object): Promise<{ id: number } | null> }>)[kind.model];
  const clash = await delegate.findFirst({
    where: { [kind.parentField]: parentId, urlKey, language, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) {
    const parent = kind.parentLink;
    throw new AppError(
      "bad_request",
      `This ${parent} already has a page with url_key '${urlKey}' in language '${language}' (${kind.type}/${clash.id}); edit that page instead`,
    );
  }
}

/** The page resource of one kind of parent, with its nested routes' create. */
export function pageResource<R extends PageRow, P extends PageParent>(kind: PageKind<R>, parent: ResourceDef<P>): NestedResource<R, P> {
  const delegateOf = (tx: Tx) =>
    (
      tx as unknown as Record<
        string,
        { create(args: object): Promise<{ id: number }>; update(args: object): Promise<unknown>; delete(args: object): Promise<unknown> }
      >
    )[kind.model];
  const def: ResourceDef<R> = {
    type: kind.type,
    table: kind.table,
    model: kind.model,
    tokenScopes: { read: "none", write: kind.writeScope },
    queryInclude: kind.queryInclude,
    serialize: (row) => serializePage(kind, row),
    linkTemplates: { [kind.parentLink]: { href: `/${kind.parentType}/{${kind.type}.${kind.parentLink}}`, type: kind.parentType } },
    // The reference platform lists the English pages unless a language is asked for.
    listDefaults: { language: DEFAULT_PAGE_LANGUAGE },
    includes: kind.includes,
    filters: {
      url_key: (v) => ({ urlKey: v }),
      language: (v) => ({ language: equalsIgnoringCase(v) }),
    },
    sortable: { id: "id", url_key: "urlKey", language: "language", title: "title", created_at: "createdAt", updated_at: "updatedAt" },
    readScope: (actor) => ({ [kind.parentRelation]: kind.parentReadScope(actor) }),
    can: (actor, action, row, tx) =>
      action === "show" || mayWritePage(kind, actor, kind.parentId(row), kind.primaryLanguage(row), row.language, tx),
    update: {
      schema: ZUpdatePage,
      perform: async ({ actor, tx }, row, input: TUpdatePage) => {
        const parentId = kind.parentId(row);
        const language = input.language ?? row.language;
        if (!(await mayWritePage(kind, actor, parentId, kind.primaryLanguage(row), language, tx))) {
          throw forbidden(`Only the ${kind.parentLink}'s editors may write pages in its primary language`);
        }
        const urlKey = input.url_key ?? row.urlKey;
        if (urlKey !== row.urlKey || language !== row.language) await ensureKeyFree(kind, tx, parentId, urlKey, language, row.id);
        await delegateOf(tx).update({
          where: { id: row.id },
          data: { urlKey: input.url_key, title: input.title, language: input.language, content: input.content, updatedAt: new Date() },
        });
      },
    },
    destroy: async ({ tx }, row) => {
      await delegateOf(tx).delete({ where: { id: row.id } });
    },
  };
  return {
    def,
    parent,
    parentField: kind.parentField,
    memberParam: "page_id",
    create: {
      schema: ZCreatePage,
      perform: async ({ actor, tx }, p: P, input: TCreatePage) => {
        const language = input.language ?? DEFAULT_PAGE_LANGUAGE;
        if (!(await mayWritePage(kind, actor, p.id, p.primaryLanguage, language, tx))) {
          throw forbidden(
            `Only the ${kind.parentLink}'s editors (and its translators, for languages other than '${p.primaryLanguage}') may write its pages`,
          );
        }
        await ensureKeyFree(kind, tx, p.id, input.url_key, language);
        const page = await delegateOf(tx).create({
          data: { [kind.parentField]: p.id, urlKey: input.url_key, title: input.title ?? "", language, content: input.content ?? "" },
        });
        return page.id;
      },
    },
  };
}
