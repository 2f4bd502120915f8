// The lab's editing of a project's onboarding texts (tutorial and mini-course steps, field guide items),
// free of React: moving, adding and removing entries of a list, the records' bodies as the API takes them,
// and which attached images nothing uses any more.

/** A tutorial or mini-course step as the API stores it: Markdown, and optionally one of its attached images. */
export interface StepDraft {
  content: string;
  media?: string;
}

/** A field guide item as the API stores it: a title, Markdown, and optionally one of its attached images as icon. */
export interface ItemDraft {
  title: string;
  content: string;
  icon?: string;
}

/** `list` with the entry at `from` moved to `to` (both clamped to the list); a new array, the old untouched. */
export function moveEntry<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (from < 0 || from >= out.length) return out;
  const target = Math.max(0, Math.min(out.length - 1, to));
  const [entry] = out.splice(from, 1);
  out.splice(target, 0, entry);
  return out;
}

/** `list` without the entry at `index`. */
export function removeEntry<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

/** `list` with the entry at `index` replaced by `entry`. */
export function replaceEntry<T>(list: readonly T[], index: number, entry: T): T[] {
  return list.map((e, i) => (i === index ? entry : e));
}

/** Steps as the API takes them: content as text, `media` only when an image is chosen. */
export function stepsBody(steps: readonly StepDraft[]): StepDraft[] {
  return steps.map((s) => (s.media ? { content: s.content, media: s.media } : { content: s.content }));
}

/** Items as the API takes them: title and content as text, `icon` only when an image is chosen. */
export function itemsBody(items: readonly ItemDraft[]): ItemDraft[] {
  return items.map((i) => (i.icon ? { title: i.title, content: i.content, icon: i.icon } : { title: i.title, content: i.content }));
}

/** Steps (or items) of a record as read from the API, whatever its clients stored: text content, string media ids. */
export function stepsFromRecord(steps: readonly { content?: unknown; media?: unknown }[] | undefined): StepDraft[] {
  return (steps ?? []).map((s) => ({
    content: typeof s.content === "string" ? s.content : "",
    ...(s.media !== undefined && s.media !== null && s.media !== "" ? { media: String(s.media) } : {}),
  }));
}

export function itemsFromRecord(items: readonly { title?: unknown; content?: unknown; icon?: unknown }[] | undefined): ItemDraft[] {
  return (items ?? []).map((i) => ({
    title: typeof i.title === "string" ? i.title : "",
    content: typeof i.content === "string" ? i.content : "",
    ...(i.icon !== undefined && i.icon !== null && i.icon !== "" ? { icon: String(i.icon) } : {}),
  }));
}

/**
 * The attached images (`media`: id and src, as the API lists them) that a record's saved entries no longer
 * use: named by no step's `media` (or item's `icon`), and not mentioned (by id or src) in any entry's
 * Markdown. The lab deletes them after saving, so no replaced, removed or abandoned upload stays attached.
 */
export function unusedMedia(
  media: readonly { id: string; src?: string }[],
  named: readonly (string | undefined)[],
  markdown: readonly string[],
): string[] {
  const used = new Set(named.filter(Boolean));
  const text = markdown.join("\n");
  return media.filter((m) => !used.has(m.id) && !(m.src && text.includes(m.src))).map((m) => m.id);
}

/** The uploads (this editor's, not yet saved) that no entry names now (`named`): deleted at once. */
export function orphanedUploads(uploads: Iterable<string>, named: readonly (string | undefined)[]): string[] {
  const used = new Set(named);
  return [...uploads].filter((m) => !used.has(m));
}

/** The workflow ids linked after checking (`on`) or unchecking one, in id order. */
export function toggleWorkflow(linked: readonly string[], id: string, on: boolean): string[] {
  const set = new Set(linked);
  if (on) set.add(id);
  else set.delete(id);
  return [...set].sort((a, b) => Number(a) - Number(b));
}
