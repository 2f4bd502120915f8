// Highlighter (text subjects): spans of the text, each with one of the task's labels.
import type { TaskTypeDef } from "../types";

const HIGHLIGHTER_COLORS = ["#ff0000", "#00a000"];

export const highlighterTask: TaskTypeDef = {
  label: "Highlighter (text subjects)",
  template: () => ({ type: "highlighter", instruction: "", highlighterLabels: [{ label: "", color: HIGHLIGHTER_COLORS[0] }] }),
  emptyValue: () => [],
  isAnswered: (task, value) => !(task as { required?: boolean }).required || (Array.isArray(value) && value.length > 0),
};
