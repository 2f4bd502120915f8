import { ZLanguageCode } from "@/lib/text/language-code";

// The lab's translations editor, pure: which of a record's string keys to show beside the primary text, and
// which are missing or outdated; the body a save sends; the languages to offer. A key's "version" is a short
// hash of the primary text it was translated from, kept in the translation's string_versions, so a change
// of the primary text marks the key outdated until a translator edits it again.

export type KeyStatus = "missing" | "outdated" | "translated";

export interface TranslationRow {
  key: string;
  primary: string;
  text: string;
  status: KeyStatus;
  /** A Markdown text (a textarea with a preview) rather than a one-line label. */
  markdown: boolean;
}

/** Leaf names whose texts are Markdown blocks (tutorial steps, field guide items, pages, task help, the project's texts). */
const MARKDOWN_LEAVES = new Set(["content", "help", "introduction", "researcher_quote", "description", "workflow_description"]);

export const isMarkdownKey = (key: string) => MARKDOWN_LEAVES.has(key.slice(key.lastIndexOf(".") + 1));

/** A short, stable hash of a text (FNV-1a, 32 bits, hex): the version of a primary text a key was translated from. */
export function stringVersion(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * One row per primary key, in the primary's order: the translation's text (drafts win over the saved
 * strings), missing when blank, outdated when its saved version names another primary text (a key saved
 * without a version, by another client, counts as current).
 */
export function translationRows(
  primary: Record<string, string>,
  saved: Record<string, string>,
  versions: Record<string, unknown>,
  drafts: Record<string, string> = {},
): TranslationRow[] {
  return Object.entries(primary).map(([key, text]) => {
    const value = drafts[key] ?? saved[key] ?? "";
    const version = versions[key];
    const edited = key in drafts && drafts[key] !== (saved[key] ?? "");
    const status: KeyStatus = !value.trim()
      ? "missing"
      : !edited && typeof version === "string" && version !== stringVersion(text)
        ? "outdated"
        : "translated";
    return { key, primary: text, text: value, status, markdown: isMarkdownKey(key) };
  });
}

/**
 * The strings and string_versions a save sends: every non-blank text of a primary key (keys the primary no
 * longer has are dropped); an edited key, or one without a version, takes the current primary's version,
 * an untouched one keeps the version it had (so it stays outdated).
 */
export function translationBody(
  primary: Record<string, string>,
  saved: Record<string, string>,
  versions: Record<string, unknown>,
  drafts: Record<string, string>,
): { strings: Record<string, string>; string_versions: Record<string, string> } {
  const strings: Record<string, string> = {};
  const string_versions: Record<string, string> = {};
  for (const [key, text] of Object.entries(primary)) {
    const value = drafts[key] ?? saved[key] ?? "";
    if (!value.trim()) continue;
    strings[key] = value;
    const old = versions[key];
    const edited = key in drafts && drafts[key] !== (saved[key] ?? "");
    string_versions[key] = !edited && typeof old === "string" ? old : stringVersion(text);
  }
  return { strings, string_versions };
}

/** The languages to offer: the project's, those translated already and those added here, without the primary, lower case, once each. */
export function languageChoices(primary: string, ...lists: string[][]): string[] {
  const p = primary.toLowerCase();
  return [...new Set(lists.flat().map((l) => l.toLowerCase()))].filter((l) => l && l !== p).sort();
}

/** A language code a researcher typed, normalised (lower case), or why it cannot be one. */
export function parseLanguage(raw: string, primary: string): { language: string } | { error: string } {
  const parsed = ZLanguageCode.safeParse(raw);
  if (!parsed.success) return { error: "A language code such as fr, pt-br or es_MX" };
  const language = parsed.data.toLowerCase();
  if (language === primary.toLowerCase()) return { error: "That is the project's primary language: edit the records themselves" };
  return { language };
}
