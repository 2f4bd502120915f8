// A record's translatable strings as flat dotted keys, as the established platform's translations hold
// them ("display_name", "tasks.T0.question", "tasks.T0.answers.1.label", "items.0.content", ...), and the
// inverse: a translation's strings applied onto a copy of the record. Pure (no database).

export const TRANSLATED_TYPES = ["project", "workflow", "field_guide", "tutorial", "project_page"] as const;
export type TranslatedType = (typeof TRANSLATED_TYPES)[number];

/** Leaf names under tasks (and field guide items, tutorial steps) whose text a volunteer reads. */
const TEXT_KEYS = new Set([
  "question",
  "instruction",
  "help",
  "label",
  "description",
  "title",
  "content",
  "text",
  "successMessage",
  "failureMessage",
  "defaultSuccessMessage",
  "defaultFailureMessage",
]);

type Json = unknown;

function walk(value: Json, path: string, out: Record<string, string>) {
  if (Array.isArray(value))
    value.forEach((v, i) => {
      walk(v, `${path}.${i}`, out);
    });
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === "string") {
        if (TEXT_KEYS.has(k) && v.trim()) out[`${path}.${k}`] = v;
      } else walk(v, `${path}.${k}`, out);
    }
  }
}

const TOP_LEVEL: Record<TranslatedType, string[]> = {
  project: ["display_name", "title", "description", "introduction", "researcher_quote", "workflow_description"],
  workflow: ["display_name"],
  field_guide: [],
  tutorial: ["display_name"],
  project_page: ["title", "content"],
};
const NESTED: Record<TranslatedType, string[]> = {
  project: [],
  workflow: ["tasks"],
  field_guide: ["items"],
  tutorial: ["steps"],
  project_page: [],
};

/** The strings of a record in its wire shape (snake_case keys, e.g. a workflow's `tasks`). */
export function recordStrings(type: TranslatedType, record: Record<string, Json>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of TOP_LEVEL[type]) {
    const v = record[key];
    if (typeof v === "string" && v.trim()) out[key] = v;
  }
  for (const key of NESTED[type]) walk(record[key], key, out);
  return out;
}

/**
 * A copy of `record` with each string of `strings` put at its key's path, where that path exists and holds
 * a string and names a text (keys of another version of the record, or of nothing, change nothing).
 */
export function applyStrings<T extends Record<string, Json>>(record: T, strings: Record<string, unknown>): T {
  const copy = structuredClone(record) as Record<string, Json>;
  for (const [key, text] of Object.entries(strings ?? {})) {
    if (typeof text !== "string" || !text.trim()) continue;
    const parts = key.split(".");
    let node: Json = copy;
    // Own keys only: a key path through `__proto__` or `constructor` (translators write the keys) must
    // never reach Object.prototype or Object.
    for (const p of parts.slice(0, -1)) {
      node = node && typeof node === "object" && Object.hasOwn(node, p) ? (node as Record<string, Json>)[p] : undefined;
      if (node === undefined || node === null) break;
    }
    const last = parts[parts.length - 1];
    // Only texts: a nested key must name a text field (never `next`, `type` or an id), a top-level one a string.
    if (parts.length > 1 && !TEXT_KEYS.has(last)) continue;
    if (node && typeof node === "object" && Object.hasOwn(node, last) && typeof (node as Record<string, Json>)[last] === "string")
      (node as Record<string, Json>)[last] = text;
  }
  return copy as T;
}
