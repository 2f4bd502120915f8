import { ZShapeExtractor, type Shape } from "./schemas";
import { defineExtractor, Missing, taskAnnotations } from "./extractor";

/** The numeric fields each shape reads from a mark, in output order. Angles default to 0. */
export const SHAPE_FIELDS: Record<Exclude<Shape, "polygon">, readonly string[]> = {
  point: ["x", "y"],
  rectangle: ["x", "y", "width", "height", "angle"],
  circle: ["x", "y", "r"],
  ellipse: ["x", "y", "rx", "ry", "angle"],
  line: ["x1", "y1", "x2", "y2"],
};
const OPTIONAL_FIELDS = new Set(["angle"]);

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function toolIndexOf(mark: Record<string, unknown>): number {
  return num(mark.toolIndex) ?? num(mark.tool) ?? 0;
}

/** A mark's values in the shape's field order, or null when a required field is not a number. */
function markValues(shape: Shape, mark: Record<string, unknown>): Record<string, unknown> | null {
  if (shape === "polygon") {
    if (!Array.isArray(mark.points)) return null;
    const points: [number, number][] = [];
    for (const p of mark.points) {
      const x = num((p as Record<string, unknown>)?.x);
      const y = num((p as Record<string, unknown>)?.y);
      if (x === null || y === null) return null;
      points.push([x, y]);
    }
    return { points };
  }
  const out: Record<string, unknown> = {};
  for (const f of SHAPE_FIELDS[shape]) {
    const v = num(mark[f]);
    if (v === null && !OPTIONAL_FIELDS.has(f)) return null;
    out[f] = v ?? 0;
  }
  return out;
}

/**
 * `shape`: the marks of one shape type, as parallel arrays per tool index:
 * `{"T0_tool0_x": [..], "T0_tool0_y": [..]}` for points; `_x,_y,_width,_height,_angle` for rectangles;
 * `_x,_y,_r` circles; `_x,_y,_rx,_ry,_angle` ellipses; `_x1,_y1,_x2,_y2` lines; `_points` (one `[[x, y], ...]`
 * per polygon) for polygons. When any mark of a tool has a `frame`, `_frame` holds each mark's frame (0 when
 * absent). Marks lacking a required number are left out; `tool_index` keeps only that tool. A task with no
 * annotation is missing; one with no usable marks gives `{}`.
 */
export const shapeExtractor = defineExtractor(ZShapeExtractor, (config, c) => {
  const annotations = taskAnnotations(c, config.task_key);
  if (!annotations.length) return new Missing(`task '${config.task_key}' has no annotation`);
  const byTool = new Map<number, { values: Record<string, unknown>; frame: number | null }[]>();
  for (const a of annotations) {
    if (!Array.isArray(a.value)) continue;
    for (const raw of a.value) {
      if (!raw || typeof raw !== "object") continue;
      const mark = raw as Record<string, unknown>;
      const tool = toolIndexOf(mark);
      if (config.tool_index !== undefined && tool !== config.tool_index) continue;
      const values = markValues(config.shape, mark);
      if (!values) continue;
      if (!byTool.has(tool)) byTool.set(tool, []);
      byTool.get(tool)!.push({ values, frame: num(mark.frame) });
    }
  }
  const data: Record<string, unknown> = {};
  for (const tool of [...byTool.keys()].sort((a, b) => a - b)) {
    const marks = byTool.get(tool)!;
    const prefix = `${config.task_key}_tool${tool}`;
    for (const field of Object.keys(marks[0].values)) data[`${prefix}_${field}`] = marks.map((m) => m.values[field]);
    if (marks.some((m) => m.frame !== null)) data[`${prefix}_frame`] = marks.map((m) => m.frame ?? 0);
  }
  return data;
});
