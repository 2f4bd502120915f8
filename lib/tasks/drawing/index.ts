// Drawing: marks made with the task's tools (geometry in lib/tasks/drawing/marks.ts); each mark may carry
// answers to the tool's subtasks (`details`). The annotation's marks lose the classifier's own `toolType`.
import type { Mark } from "./marks";
import { TOOL_TYPES } from "./tool-types";
import type { TaskDef, TaskTypeDef, Tool } from "../types";

/** The tools the lab offers for a drawing task. */
export const DRAWING_TOOL_TYPES = [
  "point",
  "rectangle",
  "circle",
  "ellipse",
  "line",
  "polygon",
  "polyline",
  "freehandLine",
  "transcriptionLine",
  "column",
] as const;
const TOOL_COLORS = ["#ff0000", "#00a000", "#0050ff", "#ff9900", "#a000c0", "#00a0a0"];

/** A new tool of a drawing task, coloured by its place among the task's tools. */
export function newTool(type: string, index: number): TaskDef {
  return { type, label: "", color: TOOL_COLORS[index % TOOL_COLORS.length], details: [] };
}

const SUPPORTED_TOOLS = new Set<string>(TOOL_TYPES);

export const drawingTask: TaskTypeDef = {
  label: "Drawing (marks)",
  template: () => ({ type: "drawing", instruction: "", tools: [newTool("point", 0)] }),
  emptyValue: () => [],
  isAnswered: (task, value) => !(task as { required?: boolean }).required || (Array.isArray(value) && value.length > 0),
  annotationValue: (_task, value) => ((value as Mark[]) ?? []).map(({ toolType: _t, ...m }) => m),
  isSupported: (task) => !(task as { tools: Tool[] }).tools.some((t) => !SUPPORTED_TOOLS.has(t.type)),
  extractor: { type: "shape", shape: "point" },
};
