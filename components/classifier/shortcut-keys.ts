// Where the classifier's keyboard shortcuts (1–9, Enter, ?) keep out of the way: a field the volunteer
// types in takes its keys as text.

const NOT_TEXT = new Set(["radio", "checkbox", "button", "submit", "reset", "range", "color", "file", "image"]);

/** Whether the key goes to a text field (an input one types in, a textarea, a select, editable content). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TEXT.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable;
}
