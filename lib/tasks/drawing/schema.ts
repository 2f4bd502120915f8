import { z } from "zod";
import { ZNext, ZText } from "../schema-parts";

// polyline, freehandLine and transcriptionLine are drawn by the volunteer classifier (lib/tasks/drawing/marks.ts).
export const DRAWING_TOOLS = [
  "point",
  "rectangle",
  "circle",
  "ellipse",
  "line",
  "polygon",
  "bezier",
  "column",
  "triangle",
  "fullWidthLine",
  "fullHeightLine",
  "polyline",
  "freehandLine",
  "transcriptionLine",
] as const;
const ZTool = z.looseObject({
  type: z.enum(DRAWING_TOOLS, { message: `tool type must be one of ${DRAWING_TOOLS.join(", ")}` }),
  label: ZText.optional(),
  color: z.string().max(50).optional(),
  details: z
    .array(z.looseObject({ type: z.string() }))
    .max(50)
    .optional(),
  min: z.union([z.number(), z.string()]).nullish(),
  max: z.union([z.number(), z.string()]).nullish(),
});
export const ZDrawing = z.looseObject({
  type: z.literal("drawing"),
  instruction: ZText.optional(),
  tools: z.array(ZTool).min(1, "a drawing task needs at least one tool").max(50),
  next: ZNext,
  help: ZText.optional(),
});
