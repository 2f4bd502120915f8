import { db } from "@/lib/db";
import { applyStrings, type TranslatedType } from "@/lib/i18n/strings";

// The language a visitor reads a project in (?language=, else the quorum_language cookie the chooser sets,
// else the project's primary language; only languages the project offers), and its records' strings in it.

export const LANGUAGE_COOKIE = "quorum_language";

export function chooseLanguage(
  project: { primaryLanguage: string; availableLanguages: string[] },
  asked: string | undefined,
  cookie: string | undefined,
): string {
  const offered = new Set([project.primaryLanguage, ...project.availableLanguages].map((l) => l.toLowerCase()));
  for (const wish of [asked, cookie]) if (wish && offered.has(wish.toLowerCase())) return wish.toLowerCase();
  return project.primaryLanguage.toLowerCase();
}

/** Each record's strings in `language` (records without a translation are absent). */
export async function translationsOf(type: TranslatedType, ids: number[], language: string): Promise<Map<number, Record<string, string>>> {
  if (!ids.length) return new Map();
  const rows = await db().translation.findMany({
    where: { translatedType: type, translatedId: { in: ids }, language },
    select: { translatedId: true, strings: true },
  });
  return new Map(rows.map((r) => [r.translatedId, r.strings as Record<string, string>]));
}

/** `record` (wire shape) in `language`, or as it is when it has no translation there. */
export async function translated<T extends Record<string, unknown>>(
  type: TranslatedType,
  id: number,
  language: string,
  primary: string,
  record: T,
): Promise<T> {
  if (language === primary.toLowerCase()) return record;
  const strings = (await translationsOf(type, [id], language)).get(id);
  return strings ? applyStrings(record, strings) : record;
}
