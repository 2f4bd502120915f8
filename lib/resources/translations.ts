import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { Prisma, Translation } from "@/lib/generated/prisma/client";
import { forbidden, notFound, unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { recordStrings, TRANSLATED_TYPES, type TranslatedType } from "@/lib/i18n/strings";
import { normalizeLanguage } from "@/lib/text/language-code";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { iso } from "./wire";

// /api/translations as the established platform: a record's strings per language. The primary language's
// translation is the record itself: it is (re)written from the record whenever its translations are read,
// and cannot be created or edited here (the record is edited instead). Other languages are written by the
// project's owner, collaborators and translators. Visible with the record's project.

const CLASS_NAMES: Record<TranslatedType, string> = {
  project: "Project",
  workflow: "Workflow",
  field_guide: "FieldGuide",
  tutorial: "Tutorial",
  project_page: "ProjectPage",
};

/** A translated_type as clients send it ("workflow", "Workflow", "field_guide", "FieldGuide"). */
export function parseTranslatedType(raw: unknown): TranslatedType {
  const t = String(raw ?? "")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase();
  if (!(TRANSLATED_TYPES as readonly string[]).includes(t))
    throw unprocessable(`translated_type must be one of ${TRANSLATED_TYPES.join(", ")}`);
  return t as TranslatedType;
}

interface Translated {
  projectId: number;
  primaryLanguage: string;
  strings: Record<string, string>;
}

/** The translated record as its project's visitors may see it, with its primary strings; null when not. */
async function translatedRecord(tx: Tx, type: TranslatedType, id: number, actor: Actor): Promise<Translated | null> {
  const scope = { project: projectReadScope(actor) };
  switch (type) {
    case "project": {
      const p = await tx.project.findFirst({ where: { AND: [{ id }, projectReadScope(actor)] } });
      return (
        p && {
          projectId: p.id,
          primaryLanguage: p.primaryLanguage,
          strings: recordStrings(type, {
            display_name: p.displayName,
            title: p.title,
            description: p.description,
            introduction: p.introduction,
            researcher_quote: p.researcherQuote,
            workflow_description: p.workflowDescription,
          }),
        }
      );
    }
    case "workflow": {
      const w = await tx.workflow.findFirst({ where: { id, ...scope } });
      return (
        w && {
          projectId: w.projectId,
          primaryLanguage: w.primaryLanguage,
          strings: recordStrings(type, { display_name: w.displayName, tasks: w.tasks }),
        }
      );
    }
    case "field_guide": {
      const g = await tx.fieldGuide.findFirst({ where: { id, ...scope } });
      return g && { projectId: g.projectId, primaryLanguage: g.language, strings: recordStrings(type, { items: g.items }) };
    }
    case "tutorial": {
      const t = await tx.tutorial.findFirst({ where: { id, ...scope } });
      return (
        t && {
          projectId: t.projectId,
          primaryLanguage: t.language,
          strings: recordStrings(type, { display_name: t.displayName, steps: t.steps }),
        }
      );
    }
    case "project_page": {
      const pg = await tx.projectPage.findFirst({ where: { id, ...scope } });
      return (
        pg && {
          projectId: pg.projectId,
          primaryLanguage: pg.language,
          strings: recordStrings(type, { title: pg.title, content: pg.content }),
        }
      );
    }
  }
}

/** Writes the primary language's translation from the record (only when its strings changed). */
export async function syncPrimaryTranslation(type: TranslatedType, id: number, actor: Actor): Promise<void> {
  const record = await translatedRecord(db(), type, id, actor);
  if (!record) return;
  const key = { translatedType_translatedId_language: { translatedType: type, translatedId: id, language: record.primaryLanguage } };
  const current = await db().translation.findUnique({ where: key, select: { strings: true } });
  if (current && JSON.stringify(current.strings) === JSON.stringify(record.strings)) return;
  const strings = record.strings as Prisma.InputJsonValue;
  await db().translation.upsert({
    where: key,
    create: { translatedType: type, translatedId: id, language: record.primaryLanguage, projectId: record.projectId, strings },
    update: { strings, updatedAt: new Date() },
  });
}

const ZStrings = z
  .record(z.string().max(500), z.string().max(100_000))
  .refine((s) => Object.keys(s).length <= 5000, "at most 5000 strings");
const ZCreate = z.strictObject({
  translated_type: z.string(),
  translated_id: z.union([z.string(), z.number()]),
  language: z.string().min(2).max(20),
  strings: ZStrings,
  string_versions: z.record(z.string(), z.unknown()).optional(),
  links: z.strictObject({}).optional(),
});
const ZUpdate = z.strictObject({
  strings: ZStrings,
  string_versions: z.record(z.string(), z.unknown()).optional(),
  links: z.strictObject({}).optional(),
});

/**
 * strings hold what ZStrings accepted or the record's own strings (recordStrings), string_versions the object
 * a write gave: the wire says so.
 */
export function serializeTranslation(t: Translation) {
  return {
    id: String(t.id),
    translated_id: String(t.translatedId),
    translated_type: CLASS_NAMES[t.translatedType as TranslatedType] ?? t.translatedType,
    language: t.language,
    strings: t.strings as Record<string, string>,
    string_versions: t.stringVersions as Record<string, unknown>,
    href: `/translations/${t.id}`,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    links: { [t.translatedType]: String(t.translatedId) },
  };
}

async function requireTranslator(tx: Tx, actor: Actor, projectId: number): Promise<void> {
  if (!(await canOnProject(actor, "translate", projectId, tx)))
    throw forbidden("Only the project's owner, collaborators and translators may write its translations");
}

export const translations: ResourceDef<Translation> = {
  type: "translations",
  table: "translations",
  model: "translation",
  tokenScopes: { read: "none", write: "translation" },
  serialize: serializeTranslation,
  linkTemplates: Object.fromEntries(
    TRANSLATED_TYPES.map((t) => [`translations.${t}`, { href: `/${t}s/{translations.${t}}`, type: `${t}s` }]),
  ),
  filters: {
    translated_type: (v) => ({ translatedType: parseTranslatedType(v) }),
    translated_id: (v) => ({ translatedId: { in: parseIdList(v, "translated_id") } }),
    language: (v) => ({ language: { in: v.split(",").map((l) => normalizeLanguage(l.trim())) } }),
  },
  sortable: { id: "id", language: "language", created_at: "createdAt", updated_at: "updatedAt" },
  readScope: (actor) => ({ project: projectReadScope(actor) }),
  can: async (actor, action, t, tx) => {
    if (action === "show") return true;
    await requireTranslator(tx, actor, t.projectId);
    const record = await translatedRecord(tx, t.translatedType as TranslatedType, t.translatedId, actor);
    if (record && record.primaryLanguage === t.language)
      throw forbidden("The primary language's strings are the record's own: edit the record instead");
    return true;
  },
  create: {
    schema: ZCreate,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreate>) => {
      const type = parseTranslatedType(input.translated_type);
      const id = parseIdValue(input.translated_id, "translated_id");
      const language = normalizeLanguage(input.language);
      const record = await translatedRecord(tx, type, id, actor);
      if (!record) throw notFound(`Could not find ${type}s with id='${id}'`);
      await requireTranslator(tx, actor, record.projectId);
      if (record.primaryLanguage === language)
        throw forbidden("The primary language's strings are the record's own: edit the record instead");
      if (
        await tx.translation.findUnique({
          where: { translatedType_translatedId_language: { translatedType: type, translatedId: id, language } },
          select: { id: true },
        })
      ) {
        throw unprocessable(`A ${language} translation of this ${type} exists already: edit it`);
      }
      const created = await tx.translation.create({
        data: {
          translatedType: type,
          translatedId: id,
          language,
          projectId: record.projectId,
          strings: input.strings,
          stringVersions: (input.string_versions ?? {}) as Prisma.InputJsonValue,
        },
      });
      return created.id;
    },
  },
  update: {
    schema: ZUpdate,
    perform: async ({ tx }, t, input: z.infer<typeof ZUpdate>) => {
      await tx.translation.update({
        where: { id: t.id },
        data: {
          strings: input.strings,
          stringVersions: (input.string_versions ?? t.stringVersions) as Prisma.InputJsonValue,
          updatedAt: new Date(),
        },
      });
    },
  },
};
