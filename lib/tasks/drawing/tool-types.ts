import type { ToolType } from "./marks";

/** The drawing tools the classifier draws (lib/tasks/drawing/marks.ts has their geometry). */
export const TOOL_TYPES: ToolType[] = [
  "point",
  "rectangle",
  "circle",
  "ellipse",
  "line",
  "transcriptionLine",
  "column",
  "polygon",
  "polyline",
  "freehandLine",
];
