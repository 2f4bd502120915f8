import { z } from "zod";
import type { FieldGuide, Prisma } from "@/lib/generated/prisma/client";
import { AppError, forbidden } from "@/lib/errors";
import { parseIdList } from "@/lib/text/params";
import { projectReadScope } from "@/lib/policies/project-policy";
import { canWriteProjectContent, requireProjectContentWriter } from "@/lib/policies/project-content-policy";
import { sameLanguage, ZLanguageCode } from "@/lib/text/language-code";
import { deleteMediaOf, mediaInclude, mediaLink, mediaLinkTemplates } from "./media";
import { DEFAULT_CONTENT_LANGUAGE, ZMediumId } from "./project-content";
import { projectInclude } from "./projects";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { iso } from "./wire";

// A project's field guide in one language (one per project and language): items of {icon, title, content},
// icon naming one of the guide's attached images. Reading follows the project; the project's editors
// write it, its translators too in languages other than the project's primary one.

type FieldGuideRow = FieldGuide & { project: { primaryLanguage: string } };

const ZId = z.union([z.string(), z.number()]);
const ZItem = z.strictObject({
  title: z
    .string()
    .max(255)
    .refine((s) => s.trim().length > 0, "can't be blank"),
  content: z.string().max(100_000),
  icon: ZMediumId.optional(),
});
const ZItems = z.array(ZItem).max(500);
const ZCreate = z.strictObject({
  language: ZLanguageCode,
  items: ZItems.default([]),
  links: z.strictObject({ project: ZId }),
});
const ZUpdate = z.strictObject({ language: ZLanguageCode, items: ZItems, links: z.strictObject({}) }).partial();

/** One guide per project and language (compared as the reference platform does, without regard to case). */
async function ensureLanguageFree(tx: Tx, projectId: number, language: string, exceptId?: number) {
  // Serialises creates and language changes of one project's guides, so two cannot both pass the check.
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, `field_guides:${projectId}`);
  const guides = await tx.fieldGuide.findMany({
    where: { projectId, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true, language: true },
  });
  const clash = guides.find((g) => sameLanguage(g.language, language));
  if (clash)
    throw new AppError(
      "bad_request",
      `This project already has a field guide in language '${clash.language}' (field_guides/${clash.id}); edit that guide instead`,
    );
}

/** items hold what ZItems accepted (written through them, or copied by copyProject): the wire says so. */
export function serializeFieldGuide(g: FieldGuide) {
  return {
    id: String(g.id),
    items: g.items as z.infer<typeof ZItems>,
    language: g.language,
    href: `/field_guides/${g.id}`,
    created_at: iso(g.createdAt),
    updated_at: iso(g.updatedAt),
    links: { project: String(g.projectId), attached_images: mediaLink("field_guides", g.id, "attached_images") },
  };
}

export const fieldGuides: ResourceDef<FieldGuideRow> = {
  type: "field_guides",
  table: "field_guides",
  model: "fieldGuide",
  tokenScopes: { read: "none", write: "project" },
  queryInclude: { project: { select: { primaryLanguage: true } } },
  serialize: serializeFieldGuide,
  // Listed in English unless a language is asked for, as the reference platform and its clients expect.
  listDefaults: { language: DEFAULT_CONTENT_LANGUAGE },
  linkTemplates: {
    project: { href: "/projects/{field_guides.project}", type: "projects" },
    ...mediaLinkTemplates("field_guides", ["attached_images"]),
  },
  includes: {
    project: projectInclude(),
    attached_images: mediaInclude("field_guides", "attached_images"),
  },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    language: (v) => ({ language: v }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt", language: "language" },
  readScope: (actor) => ({ project: projectReadScope(actor) }),
  can: (actor, action, g, tx) => action === "show" || canWriteProjectContent(actor, g.projectId, g.project.primaryLanguage, g.language, tx),
  create: {
    schema: ZCreate,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreate>) => {
      const project = await requireProjectContentWriter(tx, actor, input.links.project, input.language);
      await ensureLanguageFree(tx, project.id, input.language);
      const guide = await tx.fieldGuide.create({
        data: { projectId: project.id, language: input.language, items: input.items as Prisma.InputJsonValue },
      });
      return guide.id;
    },
  },
  update: {
    schema: ZUpdate,
    perform: async ({ actor, tx }, g, input: z.infer<typeof ZUpdate>) => {
      if (input.language !== undefined && input.language !== g.language) {
        if (!(await canWriteProjectContent(actor, g.projectId, g.project.primaryLanguage, input.language, tx))) {
          throw forbidden(
            `Only the project's owner and collaborators may write its field guide in its primary language '${g.project.primaryLanguage}'`,
          );
        }
        await ensureLanguageFree(tx, g.projectId, input.language, g.id);
      }
      await tx.fieldGuide.update({
        where: { id: g.id },
        data: { language: input.language, items: input.items as Prisma.InputJsonValue | undefined, updatedAt: new Date() },
      });
    },
  },
  destroy: async ({ tx }, g) => {
    await deleteMediaOf(tx, "field_guides", g.id);
    await tx.fieldGuide.delete({ where: { id: g.id } });
  },
};
