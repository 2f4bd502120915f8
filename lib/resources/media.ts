import crypto from "node:crypto";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { Medium } from "@/lib/generated/prisma/client";
import { extensionFor } from "@/lib/domain/subject-uploads";
import { AppError, forbidden, notFound, unprocessable } from "@/lib/errors";
import { apiRoute, type ApiContext } from "@/lib/http/api-route";
import { checkIfMatch, etagFor, ifNoneMatchHits, pageMeta, parsePaging, recordHeaders } from "@/lib/http/jsonapi";
import { countList, prismaScopeCounting, splitPage } from "@/lib/http/list-count";
import { parsePathId } from "@/lib/text/params";
import { json } from "@/lib/http/respond";
import { findVisible, recordBody, requireWriter } from "@/lib/http/resource-routes";
import { signedUrl } from "@/lib/storage/signed-urls";
import { storage } from "@/lib/storage/storage";
import type { BaseRow, IncludeDef, LinkTemplate, ResourceDef, SerializedRecord } from "@/lib/http/resource-def";
import { iso } from "./wire";

// Files attached to a record: a project's or organization's avatar and background, a user's avatar and
// profile header (one each), and attached images of projects, organizations, field guides and tutorials
// (many). As on the established platform they live under their record:
//   GET|POST|PUT|DELETE /api/<type>/<id>/<avatar|background|profile_header>
//   GET|POST /api/<type>/<id>/attached_images, GET|PUT|DELETE /api/<type>/<id>/attached_images/<medium id>
// POST {media: {content_type, metadata?, external_link?, src?}} answers the medium with `src` a signed PUT
// URL the client uploads the file to (or, with external_link, the URL given); reads answer the file's
// served URL. A second avatar replaces the first. Reading follows the record's visibility (404); writing
// needs the record's update permission. Media rows have no foreign key (any table may own them), so a
// record's destroy deletes its media.

export type MediaName = "avatar" | "background" | "attached_images" | "profile_header";

const SINGLE: Record<MediaName, boolean> = { avatar: true, background: true, profile_header: true, attached_images: false };
const LINK_TYPES: Record<MediaName, string> = {
  avatar: "avatars",
  background: "backgrounds",
  attached_images: "attached_images",
  profile_header: "profile_headers",
};

/** Files a client may upload as media: images (and short videos for attached images); never scriptable types. */
export const MEDIA_CONTENT_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
const ATTACHED_CONTENT_TYPES = [...MEDIA_CONTENT_TYPES, "video/mp4", "video/webm"] as const;

const singular = (type: string) => type.replace(/s$/, "");

/** The stored `type` of a medium: organization_avatar, field_guide_attached_image, ... */
export function mediumType(parentType: string, name: MediaName): string {
  return `${singular(parentType)}_${name.replace(/s$/, "")}`;
}

export function mediaLink(parentType: string, parentId: number, name: MediaName): { href: string; type: string } {
  return { href: `/${parentType}/${parentId}/${name}`, type: LINK_TYPES[name] };
}

export function mediaLinkTemplates(parentType: string, names: MediaName[]): Record<string, LinkTemplate> {
  return Object.fromEntries(names.map((n) => [n, { href: `/${parentType}/{${parentType}.id}/${n}`, type: "media" }]));
}

function href(m: Medium, name: MediaName): string {
  return SINGLE[name] ? `/${m.linkedType}/${m.linkedId}/${name}` : `/${m.linkedType}/${m.linkedId}/${name}/${m.id}`;
}

/** The URL a file is read at: the given one for an external link, else its stable served URL. */
function getUrl(m: Medium): string {
  return m.externalLink ? m.src : storage().publicUrl(m.src);
}

/** metadata is the object a create or update gave (ZCreateMedium, ZUpdateMedium): the wire says so. */
export function serializeMedium(m: Medium, name: MediaName) {
  return {
    id: String(m.id),
    href: href(m, name),
    src: getUrl(m),
    content_type: m.contentType,
    media_type: m.type,
    external_link: m.externalLink,
    metadata: m.metadata as Record<string, unknown>,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    links: { linked: { href: `/${m.linkedType}/${m.linkedId}`, id: String(m.linkedId), type: m.linkedType } },
  };
}

/** In the answer to a create or edit, a file not uploaded yet is named by a signed PUT URL instead. */
async function presentWritten(m: Medium, name: MediaName) {
  const record = serializeMedium(m, name);
  if (!m.externalLink && !(await storage().exists(m.src))) record.src = await signedUrl("PUT", m.src, { contentType: m.contentType });
  return record;
}

function mediaWhere(parentType: string, parentIds: number[], name: MediaName) {
  return { linkedType: parentType, linkedId: { in: parentIds }, type: mediumType(parentType, name) };
}

/** include=<name> on the parent resource: its media, under the link's plural type. */
export function mediaInclude<R extends { id: number }>(parentType: string, name: MediaName): IncludeDef<R> {
  return {
    type: LINK_TYPES[name],
    load: async (rows) => {
      const media = await db().medium.findMany({
        where: mediaWhere(
          parentType,
          rows.map((r) => r.id),
          name,
        ),
        orderBy: { id: "asc" },
      });
      return media.map((m) => ({ record: serializeMedium(m, name), parentIds: [m.linkedId] }));
    },
  };
}

/** The served URL of each record's first medium of that name (e.g. avatar_src). */
export async function mediaSrcs(parentType: string, parentIds: number[], name: MediaName): Promise<Map<number, string>> {
  if (!parentIds.length) return new Map();
  const media = await db().medium.findMany({ where: mediaWhere(parentType, parentIds, name), orderBy: { id: "asc" } });
  const srcs = new Map<number, string>();
  for (const m of media) if (!srcs.has(m.linkedId)) srcs.set(m.linkedId, getUrl(m));
  return srcs;
}

const ZCreateMedium = z.strictObject({
  content_type: z.string().min(1),
  external_link: z.boolean().optional(),
  src: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const ZUpdateMedium = z.strictObject({ metadata: z.record(z.string(), z.unknown()) });

const ZHttpUrl = z.url({ protocol: /^https?$/, message: "src must be an http(s) URL" });

function envelope(records: SerializedRecord[], meta?: object) {
  return {
    media: records,
    links: { "media.linked": { href: "/{media.linked.type}/{media.linked.id}", type: "linked" } },
    ...(meta ? { meta } : {}),
  };
}

type AnyDef = ResourceDef<BaseRow>;

/** Writes of media (uploads, their metadata, deletes) need the token scope `medium`, whatever they are attached to. */
const MEDIUM_WRITE = { scope: "medium" } as const;

async function visibleParent(def: AnyDef, ctx: ApiContext, actor: Actor): Promise<BaseRow> {
  return findVisible(def, parsePathId(ctx.params.id, def.type), actor);
}

async function writableParent(def: AnyDef, ctx: ApiContext, actor: Actor): Promise<BaseRow> {
  requireWriter(actor);
  const parent = await visibleParent(def, ctx, actor);
  if (!(await db().$transaction((tx) => Promise.resolve(def.can(actor, "update", parent, tx))))) throw forbidden();
  return parent;
}

async function findMedium(def: AnyDef, parentId: number, name: MediaName, mediumId?: number): Promise<Medium> {
  const medium = await db().medium.findFirst({
    where: { ...mediaWhere(def.type, [parentId], name), ...(mediumId === undefined ? {} : { id: mediumId }) },
    orderBy: { id: "desc" },
  });
  if (!medium)
    throw notFound(`No ${name.replace(/_/g, " ")} for ${def.type} ${parentId}${mediumId === undefined ? "" : ` with id '${mediumId}'`}`);
  return medium;
}

function showMedium(ctx: ApiContext, m: Medium, name: MediaName): Response {
  const headers = recordHeaders("media", m);
  if (ifNoneMatchHits(ctx.req, headers.ETag)) return new Response(null, { status: 304, headers });
  return json(envelope([serializeMedium(m, name)]), 200, headers);
}

async function createMedium(def: AnyDef, ctx: ApiContext, name: MediaName): Promise<Response> {
  const actor = await ctx.actor();
  const parent = await writableParent(def, ctx, actor);
  const input = ZCreateMedium.parse(await recordBody(ctx, "media"));
  const contentType = input.content_type.split(";")[0].trim().toLowerCase();
  const allowed: readonly string[] = SINGLE[name] ? MEDIA_CONTENT_TYPES : ATTACHED_CONTENT_TYPES;
  if (!allowed.includes(contentType)) throw unprocessable(`content_type must be one of ${allowed.join(", ")}`);
  let src: string;
  if (input.external_link) {
    if (!input.src) throw unprocessable("src is required with external_link");
    src = ZHttpUrl.parse(input.src);
  } else {
    if (input.src !== undefined) throw unprocessable("src is only given with external_link; the file is uploaded to the answer's src");
    src = `media/${def.type}/${parent.id}/${crypto.randomUUID()}.${extensionFor(contentType)}`;
  }
  const type = mediumType(def.type, name);
  const { created, replaced } = await db().$transaction(async (tx) => {
    // One avatar (background, profile header) per record: a new one replaces the old.
    const replaced = SINGLE[name] ? await tx.medium.findMany({ where: { linkedType: def.type, linkedId: parent.id, type } }) : [];
    if (replaced.length) await tx.medium.deleteMany({ where: { id: { in: replaced.map((m) => m.id) } } });
    const created = await tx.medium.create({
      data: {
        type,
        linkedType: def.type,
        linkedId: parent.id,
        contentType,
        src,
        externalLink: !!input.external_link,
        metadata: (input.metadata ?? {}) as object,
      },
    });
    return { created, replaced };
  });
  await removeStoredFiles(replaced);
  return json(envelope([await presentWritten(created, name)]), 201, { ...recordHeaders("media", created), Location: href(created, name) });
}

async function updateMedium(def: AnyDef, ctx: ApiContext, name: MediaName, mediumId?: number): Promise<Response> {
  const actor = await ctx.actor();
  const parent = await writableParent(def, ctx, actor);
  const input = ZUpdateMedium.parse(await recordBody(ctx, "media"));
  const medium = await findMedium(def, parent.id, name, mediumId);
  checkIfMatch(ctx.req, etagFor("media", medium));
  const updated = await db().medium.update({ where: { id: medium.id }, data: { metadata: input.metadata as object } });
  return json(envelope([await presentWritten(updated, name)]), 200, recordHeaders("media", updated));
}

async function destroyMedium(def: AnyDef, ctx: ApiContext, name: MediaName, mediumId?: number): Promise<Response> {
  const actor = await ctx.actor();
  const parent = await writableParent(def, ctx, actor);
  const medium = await findMedium(def, parent.id, name, mediumId);
  checkIfMatch(ctx.req, etagFor("media", medium));
  await db().medium.delete({ where: { id: medium.id } });
  await removeStoredFiles([medium]);
  return new Response(null, { status: 204 });
}

/** /api/<type>/<id>/<name>: GET, POST, and for a single medium (avatar...) PUT and DELETE. */
export function mediaRoutes<R extends BaseRow>(parentDef: ResourceDef<R>, name: MediaName) {
  const def = parentDef as unknown as AnyDef;
  const routes = {
    GET: apiRoute({ scope: "none" }, async (ctx) => {
      const actor = await ctx.actor();
      const parent = await visibleParent(def, ctx, actor);
      if (SINGLE[name]) {
        // As the established platform (its media index for a has-one link): none yet is an empty list, not a 404.
        const medium = await db().medium.findFirst({ where: mediaWhere(def.type, [parent.id], name), orderBy: { id: "desc" } });
        return medium ? showMedium(ctx, medium, name) : json(envelope([]));
      }
      const paging = parsePaging(ctx.url);
      const where = mediaWhere(def.type, [parent.id], name);
      const skip = (paging.page - 1) * paging.pageSize;
      const { rows: media, more } = splitPage(
        await db().medium.findMany({ where, orderBy: { id: "asc" }, ...(skip ? { skip } : {}), take: paging.pageSize + 1 }),
        paging.pageSize,
      );
      const { count, source } = await countList(
        { skipped: skip, rows: media.length, more },
        prismaScopeCounting((client) => client.medium.findMany({ where, select: { id: true } })),
      );
      return json(
        envelope(
          media.map((m) => serializeMedium(m, name)),
          pageMeta("media", ctx.url, paging, count, [], { more, source }),
        ),
      );
    }),
    POST: apiRoute(MEDIUM_WRITE, (ctx) => createMedium(def, ctx, name)),
    PUT: apiRoute(MEDIUM_WRITE, (ctx) => updateMedium(def, ctx, name)),
    DELETE: apiRoute(MEDIUM_WRITE, (ctx) => destroyMedium(def, ctx, name)),
  };
  if (SINGLE[name]) return routes;
  const notOnList = apiRoute({ scope: "none" }, async () => {
    throw new AppError("method_not_allowed", `Name the ${name.replace(/_/g, " ")} to change: /${def.type}/<id>/${name}/<medium id>`);
  });
  return { ...routes, PUT: notOnList, DELETE: notOnList };
}

/** /api/<type>/<id>/attached_images/<medium id>: GET, PUT (metadata), DELETE. */
export function mediumRoutes<R extends BaseRow>(parentDef: ResourceDef<R>, name: MediaName) {
  const def = parentDef as unknown as AnyDef;
  const mediumId = (ctx: ApiContext) => parsePathId(ctx.params.medium_id, "media");
  return {
    GET: apiRoute({ scope: "none" }, async (ctx) => {
      const actor = await ctx.actor();
      const parent = await visibleParent(def, ctx, actor);
      return showMedium(ctx, await findMedium(def, parent.id, name, mediumId(ctx)), name);
    }),
    PUT: apiRoute(MEDIUM_WRITE, (ctx) => updateMedium(def, ctx, name, mediumId(ctx))),
    DELETE: apiRoute(MEDIUM_WRITE, (ctx) => destroyMedium(def, ctx, name, mediumId(ctx))),
  };
}

/** Deletes the uploaded files of media rows already deleted (after their commit; a failure only leaves a file behind). */
async function removeStoredFiles(media: Medium[]): Promise<void> {
  for (const m of media)
    if (!m.externalLink)
      await storage()
        .deleteObject(m.src)
        .catch((err) => console.warn(`[media] could not delete ${m.src}:`, err.message));
}

/** For a parent's destroy: its media rows go with it (the files stay, as a deleted subject's do). */
export async function deleteMediaOf(
  tx: { medium: { deleteMany(args: object): Promise<unknown> } },
  parentType: string,
  parentId: number,
): Promise<void> {
  await tx.medium.deleteMany({ where: { linkedType: parentType, linkedId: parentId } });
}
