// Shortcut: options such as "Nothing here" a question offers beside its answers (the question's
// `unlinkedTask`). Choosing one ends the classification; it is recorded only when one was chosen (as PFE).
import type { TaskTypeDef, TaskValue } from "../types";

const chosen = (value: TaskValue) => Array.isArray(value) && value.length > 0;

export const shortcutTask: TaskTypeDef = {
  label: "Shortcut (“nothing here”)",
  template: () => ({ type: "shortcut", answers: [{ label: "Nothing here" }] }),
  emptyValue: () => [],
  isRecorded: chosen,
  endsClassification: chosen,
  annotationValue: (_task, value) => [...((value as number[]) ?? [])].sort((a, b) => a - b),
  ownNext: false,
  extractor: { type: "question" },
};
