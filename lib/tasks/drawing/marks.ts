// Drawing marks, free of React: the value each drawing tool records, how a drag or a list of clicks
// becomes one, and how a mark is moved and reshaped by its handles. Coordinates are the image's own pixels.
//
// Shapes follow the established platform so that its aggregation scripts and our engine's shape extractor
// (lib/engine/extractors/shape.ts) read them unchanged. Every mark is `{tool, frame, details, ...shape}`
// as zooniverse/Panoptes-Front-End records it (`tool` = the tool's index in the task, `details` = one
// `{value}` per subtask); the shape fields are each tool's `defaultValues` in PFE's
// app/classifier/drawing-tools/ (checked against its source):
//   point              {x, y}                                   point.cjsx
//   rectangle          {x, y, width, height}  x, y = top left   rectangle.cjsx
//   circle             {x, y, r, angle}       x, y = centre     circle.cjsx
//   ellipse            {x, y, rx, ry, angle}  angle in degrees  ellipse.cjsx
//   line               {x1, y1, x2, y2}                         line.cjsx
//   transcriptionLine  {x1, y1, x2, y2}                         index.coffee maps it to line.cjsx
//   column             {x, width}             a full-height band column-rectangle.cjsx
//   polygon            {points: [{x, y}], closed: true}         polygon.cjsx once closed
//   polyline           {points: [{x, y}], closed: false}        polygon.cjsx left open (PFE has no tool of this name)
//   freehandLine       {points: [{x, y}]}                       freehand-line.cjsx
// zooniverse/front-end-monorepo (lib-classifier drawingTools/models/marks) has the same point, line and
// polygon fields, and names the circle's and ellipse's centre x_center/y_center and records toolIndex
// and toolType; we keep PFE's names, which are what lib/engine/extractors/shape.ts reads.
// We keep a `toolType` while drawing; it is dropped from the annotation (annotationFor in
// lib/classifier/task-flow.ts), as PFE sends none.

export type Pt = { x: number; y: number };

interface Base {
  tool: number;
  frame: number;
  /** One `{value}` per subtask of the tool, in the tool's `details` order. */
  details: { value: unknown }[];
}

export type Mark = Base &
  (
    | { toolType: "point"; x: number; y: number }
    | { toolType: "rectangle"; x: number; y: number; width: number; height: number }
    | { toolType: "circle"; x: number; y: number; r: number; angle: number }
    | { toolType: "ellipse"; x: number; y: number; rx: number; ry: number; angle: number }
    | { toolType: "line" | "transcriptionLine"; x1: number; y1: number; x2: number; y2: number }
    | { toolType: "column"; x: number; width: number }
    | { toolType: "polygon" | "polyline"; points: Pt[]; closed: boolean }
    | { toolType: "freehandLine"; points: Pt[] }
  );

export type ToolType = Mark["toolType"];
// The list lives in a module of its own (./tool-types.ts: task-flow reads it without loading the drawing geometry).
/** Tools drawn by pressing at one point and releasing at another (a drag, or two keyboard placements). */
export const DRAG_TOOLS = new Set<ToolType>(["rectangle", "circle", "ellipse", "line", "transcriptionLine", "column"]);
/** Tools drawn vertex by vertex, finished on request (freehand also takes a continuous drag). */
export const PATH_TOOLS = new Set<ToolType>(["polygon", "polyline", "freehandLine"]);

const r2 = (n: number) => Math.round(n * 100) / 100;
const pt = (p: Pt): Pt => ({ x: r2(p.x), y: r2(p.y) });

/** The mark a drag from `a` to `b` draws with a drag tool (null when too small to be meant). */
export function markFromDrag(toolType: ToolType, base: Base, a: Pt, b: Pt): Mark | null {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  switch (toolType) {
    case "rectangle": {
      if (Math.abs(dx) < 1 || Math.abs(dy) < 1) return null;
      return { ...base, toolType, x: r2(Math.min(a.x, b.x)), y: r2(Math.min(a.y, b.y)), width: r2(Math.abs(dx)), height: r2(Math.abs(dy)) };
    }
    case "circle": {
      const r = Math.hypot(dx, dy);
      return r < 1 ? null : { ...base, toolType, x: r2(a.x), y: r2(a.y), r: r2(r), angle: 0 };
    }
    case "ellipse": {
      if (Math.abs(dx) < 1 || Math.abs(dy) < 1) return null;
      return { ...base, toolType, x: r2(a.x), y: r2(a.y), rx: r2(Math.abs(dx)), ry: r2(Math.abs(dy)), angle: 0 };
    }
    case "line":
    case "transcriptionLine":
      return Math.hypot(dx, dy) < 1 ? null : { ...base, toolType, x1: r2(a.x), y1: r2(a.y), x2: r2(b.x), y2: r2(b.y) };
    case "column":
      return Math.abs(dx) < 1 ? null : { ...base, toolType, x: r2(Math.min(a.x, b.x)), width: r2(Math.abs(dx)) };
    default:
      return null;
  }
}

/** The mark a path tool's vertices make (polygons need three, lines two). */
export function markFromPath(toolType: ToolType, base: Base, points: Pt[]): Mark | null {
  const ps = points.map(pt);
  if (toolType === "polygon") return ps.length >= 3 ? { ...base, toolType, points: ps, closed: true } : null;
  if (toolType === "polyline") return ps.length >= 2 ? { ...base, toolType, points: ps, closed: false } : null;
  if (toolType === "freehandLine") return ps.length >= 2 ? { ...base, toolType, points: ps } : null;
  return null;
}

/** The mark moved by (dx, dy) as a whole. */
export function translateMark(m: Mark, dx: number, dy: number): Mark {
  switch (m.toolType) {
    case "point":
    case "rectangle":
    case "circle":
    case "ellipse":
      return { ...m, x: r2(m.x + dx), y: r2(m.y + dy) };
    case "column":
      return { ...m, x: r2(m.x + dx) };
    case "line":
    case "transcriptionLine":
      return { ...m, x1: r2(m.x1 + dx), y1: r2(m.y1 + dy), x2: r2(m.x2 + dx), y2: r2(m.y2 + dy) };
    default:
      return { ...m, points: m.points.map((p) => pt({ x: p.x + dx, y: p.y + dy })) };
  }
}

/** The points a mark can be reshaped by (a point has none: it is moved as a whole). `height` places column handles. */
export function markHandles(m: Mark, height = 0): Pt[] {
  switch (m.toolType) {
    case "point":
      return [];
    case "rectangle":
      return [
        { x: m.x, y: m.y },
        { x: m.x + m.width, y: m.y + m.height },
      ];
    case "circle":
      return [{ x: m.x + m.r, y: m.y }];
    case "ellipse": {
      const a = (m.angle * Math.PI) / 180;
      return [
        { x: m.x + m.rx * Math.cos(a), y: m.y + m.rx * Math.sin(a) },
        { x: m.x - m.ry * Math.sin(a), y: m.y + m.ry * Math.cos(a) },
      ];
    }
    case "line":
    case "transcriptionLine":
      return [
        { x: m.x1, y: m.y1 },
        { x: m.x2, y: m.y2 },
      ];
    case "column":
      return [
        { x: m.x, y: height / 2 },
        { x: m.x + m.width, y: height / 2 },
      ];
    default:
      return m.points;
  }
}

/** The mark with handle `i` dragged to `p`. */
export function moveHandle(m: Mark, i: number, p: Pt): Mark {
  switch (m.toolType) {
    case "point":
      return m;
    case "rectangle": {
      const [a, b] = markHandles(m);
      const [c, d] = i === 0 ? [p, b] : [a, p];
      return {
        ...m,
        x: r2(Math.min(c.x, d.x)),
        y: r2(Math.min(c.y, d.y)),
        width: r2(Math.abs(c.x - d.x)),
        height: r2(Math.abs(c.y - d.y)),
      };
    }
    case "circle":
      return { ...m, r: r2(Math.max(1, Math.hypot(p.x - m.x, p.y - m.y))) };
    case "ellipse": {
      const d = Math.max(1, Math.hypot(p.x - m.x, p.y - m.y));
      const deg = (Math.atan2(p.y - m.y, p.x - m.x) * 180) / Math.PI;
      return i === 0 ? { ...m, rx: r2(d), angle: r2(deg) } : { ...m, ry: r2(d), angle: r2(deg - 90) };
    }
    case "line":
    case "transcriptionLine":
      return i === 0 ? { ...m, x1: r2(p.x), y1: r2(p.y) } : { ...m, x2: r2(p.x), y2: r2(p.y) };
    case "column": {
      const other = i === 0 ? m.x + m.width : m.x;
      return { ...m, x: r2(Math.min(other, p.x)), width: r2(Math.abs(other - p.x)) };
    }
    default:
      return { ...m, points: m.points.map((q, j) => (j === i ? pt(p) : q)) };
  }
}

/** A short description of a mark for lists and screen readers ("at 100, 150 (20 × 10)"). */
export function describeMark(m: Mark): string {
  const n = Math.round;
  switch (m.toolType) {
    case "point":
      return `at ${n(m.x)}, ${n(m.y)}`;
    case "rectangle":
      return `at ${n(m.x)}, ${n(m.y)} (${n(m.width)} × ${n(m.height)})`;
    case "circle":
      return `at ${n(m.x)}, ${n(m.y)} (radius ${n(m.r)})`;
    case "ellipse":
      return `at ${n(m.x)}, ${n(m.y)} (${n(m.rx)} × ${n(m.ry)})`;
    case "line":
    case "transcriptionLine":
      return `from ${n(m.x1)}, ${n(m.y1)} to ${n(m.x2)}, ${n(m.y2)}`;
    case "column":
      return `at x ${n(m.x)} (width ${n(m.width)})`;
    default:
      return `with ${m.points.length} points from ${n(m.points[0].x)}, ${n(m.points[0].y)}`;
  }
}
