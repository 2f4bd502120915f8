"use client";
import { createPortal } from "react-dom";
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { emptyDetails, type Mark, type Tool } from "@/lib/classifier/task-flow";
import {
  DRAG_TOOLS,
  PATH_TOOLS,
  describeMark,
  markFromDrag,
  markFromPath,
  markHandles,
  moveHandle,
  translateMark,
  type Pt,
  type ToolType,
} from "@/lib/tasks/drawing/marks";
import { MarkHitArea, MarkShape } from "./mark-shape";
import { toolColor, toolLabel } from "./tool-style";
import { useHandleRadius } from "./handle-size";

export interface DrawingState {
  /** The drawing task's tools and the chosen one's index. */
  tools: Tool[];
  tool: number;
  /** Every mark of the task (all frames); this layer shows the current frame's. */
  marks: Mark[];
  onChange(marks: Mark[]): void;
}

type Drag =
  | { kind: "draw"; from: Pt; to: Pt }
  | { kind: "free"; points: Pt[] }
  | { kind: "move"; index: number; from: Pt; original: Mark }
  | { kind: "handle"; index: number; handle: number };

/** How the tool draws, for the layer's name. */
const HOW = (toolType: ToolType) =>
  toolType === "point"
    ? "click to place a point"
    : DRAG_TOOLS.has(toolType)
      ? "drag to draw"
      : toolType === "freehandLine"
        ? "drag to draw freehand"
        : "click each vertex, then Finish shape";

/** The layer's name: the tool, how it draws, and the keyboard's way. */
const layerLabel = (label: string, toolType: ToolType) =>
  `Drawing layer: ${label} (${toolType}): ${HOW(toolType)}; or use the arrow keys and Enter. ` +
  "Tab to a mark to move it with the arrows or remove it with Delete.";

/** The move an arrow key asks for (`step` image pixels, five times that with Shift), or null for another key. */
function arrows(e: KeyboardEvent, step: number): [number, number] | null {
  const s = e.shiftKey ? step * 5 : step;
  const d: Record<string, [number, number]> = { ArrowLeft: [-s, 0], ArrowRight: [s, 0], ArrowUp: [0, -s], ArrowDown: [0, s] };
  return d[e.key] ?? null;
}

interface DrawingLayerProps {
  drawing: DrawingState;
  frame: number;
  width: number;
  height: number;
  /** Asks the subtasks about mark `index` (after it is drawn with a tool that has `details`, or on Enter). */
  onDetails(index: number): void;
  /** Where the layer's buttons (finish shape, delete mark) go: outside the transformed image. */
  controls: HTMLElement | null;
  /** While the viewer moves the image, the layer lets the pointer through. */
  disabled?: boolean;
  /** The viewer's zoom (its transform), for the handles' size on screen. */
  zoom?: number;
}

/**
 * The SVG drawing layer over one frame, in the image's own pixel coordinates. Pointer positions are
 * converted with the layer's getScreenCTM().inverse(), so zoom, pan and rotation of the viewer (CSS
 * transforms of an ancestor) leave marks attached to the image. Drawing: click (point), drag (rectangle,
 * circle, ellipse, line, transcription line, column), click vertex by vertex (polygon, polyline; finish
 * on the first vertex or with "Finish shape"), or drag freehand. The keyboard does the same with a
 * crosshair (arrows, Enter). Marks are focusable: Tab to one, arrows move it, Delete removes it, Enter
 * opens its subtasks; a selected mark's handles reshape it by dragging or (focused) with the arrows.
 */
export function DrawingLayer({ drawing, frame, width, height, onDetails, controls, disabled = false, zoom = 1 }: DrawingLayerProps) {
  const svg = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [path, setPath] = useState<Pt[]>([]);
  const [anchor, setAnchor] = useState<Pt | null>(null);
  const [cursor, setCursor] = useState<Pt | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const { tools, tool, marks } = drawing;
  const toolType = (tools[tool]?.type ?? "point") as ToolType;
  const color = toolColor(tools, tool);
  const sw = Math.max(2, Math.max(width, height) / 300);
  const handleRadius = useHandleRadius(svg, width, zoom, sw * 3);
  // A half-drawn shape belongs to the tool it was started with.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tool` is the trigger: choosing another tool drops the half-drawn shape
  useEffect(() => {
    setPath([]);
    setAnchor(null);
  }, [tool]);
  const clampPt = (p: Pt): Pt => ({ x: Math.min(width, Math.max(0, p.x)), y: Math.min(height, Math.max(0, p.y)) });

  const toImage = (e: { clientX: number; clientY: number }): Pt => {
    const m = svg.current!.getScreenCTM()!.inverse();
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m);
    return { x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100 };
  };
  const base = () => ({ tool, frame, details: emptyDetails(tools[tool]) });
  const add = (m: Mark | null) => {
    if (!m) return;
    const index = marks.length;
    drawing.onChange([...marks, m]);
    setSelected(index);
    if (tools[tool]?.details?.length) onDetails(index);
  };
  const replace = (i: number, m: Mark) => drawing.onChange(marks.map((x, j) => (j === i ? m : x)));
  const remove = (i: number) => {
    drawing.onChange(marks.filter((_, j) => j !== i));
    setSelected(null);
    svg.current?.focus();
  };
  const finishPath = (points = path) => {
    add(markFromPath(toolType, base(), points));
    setPath([]);
  };
  // Close a polygon by touching its first vertex again (within a few screen pixels).
  const nearFirst = (p: Pt) => {
    if (!path.length) return false;
    const scale = svg.current ? svg.current.getBoundingClientRect().width / width || 1 : 1;
    return Math.hypot(p.x - path[0].x, p.y - path[0].y) * scale < 12;
  };
  const place = (p: Pt) => {
    if (toolType === "point") add({ ...base(), toolType: "point", x: p.x, y: p.y });
    else if (DRAG_TOOLS.has(toolType)) {
      if (!anchor) setAnchor(p);
      else {
        add(markFromDrag(toolType, base(), anchor, p));
        setAnchor(null);
      }
    } else if (PATH_TOOLS.has(toolType)) {
      if (toolType === "polygon" && path.length >= 3 && nearFirst(p)) finishPath();
      else setPath((ps) => [...ps, p]);
    }
  };

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return;
    svg.current!.setPointerCapture(e.pointerId);
    setSelected(null);
    const p = clampPt(toImage(e));
    if (DRAG_TOOLS.has(toolType)) setDrag({ kind: "draw", from: p, to: p });
    else if (toolType === "freehandLine") setDrag({ kind: "free", points: [p] });
    else place(p);
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const p = clampPt(toImage(e));
    if (drag.kind === "draw") setDrag({ ...drag, to: p });
    else if (drag.kind === "free") setDrag({ kind: "free", points: [...drag.points, p] });
    else if (drag.kind === "move") replace(drag.index, translateMark(drag.original, p.x - drag.from.x, p.y - drag.from.y));
    else replace(drag.index, moveHandle(marks[drag.index], drag.handle, p));
  };
  const onPointerUp = (e: PointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const p = clampPt(toImage(e));
    if (drag.kind === "draw") add(markFromDrag(toolType, base(), drag.from, p));
    else if (drag.kind === "free") finishPath([...drag.points, p]);
    setDrag(null);
  };
  const grab = (e: PointerEvent<SVGElement>, d: Drag) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    svg.current!.setPointerCapture(e.pointerId);
    if (d.kind === "move" || d.kind === "handle") setSelected(d.index);
    setDrag(d);
  };

  const onLayerKey = (e: KeyboardEvent<SVGSVGElement>) => {
    if (e.target !== e.currentTarget) return;
    const c = cursor ?? { x: Math.round(width / 2), y: Math.round(height / 2) };
    const d = arrows(e, 10);
    if (d) {
      e.preventDefault();
      setCursor(clampPt({ x: c.x + d[0], y: c.y + d[1] }));
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      place(c);
      setCursor(c);
    } else if (e.key === "Escape") {
      setAnchor(null);
      setPath([]);
    }
  };

  return (
    <>
      <svg
        ref={svg}
        role="application"
        aria-label={layerLabel(toolLabel(tools, tool), toolType)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: role=application makes the drawing surface a control; keyboard drawing starts by focusing it
        tabIndex={0}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        // Its focus ring is the viewer's (../subject-viewer.tsx): its own would be clipped at the viewer's edge.
        className="absolute inset-0 h-full w-full cursor-crosshair touch-none focus-visible:outline-none!"
        style={disabled ? { pointerEvents: "none" } : undefined}
        data-testid="drawing-layer"
        data-tool={toolType}
        onKeyDown={onLayerKey}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => setDrag(null)}
      >
        {marks.map((m, i) =>
          m.frame === frame ? (
            <DrawnMark
              key={i}
              mark={m}
              index={i}
              tools={tools}
              selected={selected === i}
              strokeWidth={sw}
              handleRadius={handleRadius}
              height={height}
              disabled={disabled}
              onSelect={() => setSelected(i)}
              onChange={(mark) => replace(i, mark)}
              onRemove={() => remove(i)}
              onDetails={tools[m.tool]?.details?.length ? () => onDetails(i) : null}
              onGrab={(e, handle) =>
                grab(e, handle === null ? { kind: "move", index: i, from: toImage(e), original: m } : { kind: "handle", index: i, handle })
              }
            />
          ) : null,
        )}
        <Sketch
          mark={preview(drag, path, toolType, base())}
          path={path}
          anchor={anchor}
          cursor={cursor}
          color={color}
          strokeWidth={sw}
          height={height}
        />
      </svg>
      {controls &&
        (path.length > 0 || selected !== null) &&
        createPortal(
          <DrawingButtons
            drawingPath={path.length > 0}
            markSelected={selected !== null && !!marks[selected]}
            onFinish={() => finishPath()}
            onCancel={() => setPath([])}
            onDelete={() => selected !== null && remove(selected)}
          />,
          controls,
        )}
    </>
  );
}

/** One mark of the frame: focusable and draggable, named for screen readers; when selected, its resize handles. */
function DrawnMark({
  mark: m,
  index: i,
  tools,
  selected,
  strokeWidth: sw,
  handleRadius,
  height,
  disabled,
  onSelect,
  onChange,
  onRemove,
  onDetails,
  onGrab,
}: {
  mark: Mark;
  index: number;
  tools: Tool[];
  selected: boolean;
  strokeWidth: number;
  /** In the image's pixels: large enough on screen for a finger on a touch screen (./handle-size.ts). */
  handleRadius: number;
  height: number;
  disabled: boolean;
  onSelect(): void;
  /** The mark moved or reshaped from the keyboard. */
  onChange(mark: Mark): void;
  onRemove(): void;
  /** Opens the mark's subtasks (null: its tool has none). */
  onDetails: (() => void) | null;
  /** A pointer down on the mark (`handle` null: to move it) or on one of its handles. */
  onGrab(e: PointerEvent<SVGElement>, handle: number | null): void;
}) {
  const name = `${toolLabel(tools, m.tool)} ${i + 1}: ${m.toolType} ${describeMark(m)}`;
  // Arrows move the mark, Delete removes it, Enter opens its subtasks; on a handle, arrows reshape it.
  const onKeyDown = (e: KeyboardEvent) => {
    const d = arrows(e, 1);
    const act = d
      ? () => onChange(translateMark(m, d[0], d[1]))
      : e.key === "Delete" || e.key === "Backspace"
        ? onRemove
        : e.key === "Enter"
          ? onDetails
          : null;
    if (!act) return;
    e.preventDefault();
    e.stopPropagation();
    act();
  };
  const onHandleKey = (e: KeyboardEvent, h: number) => {
    const d = arrows(e, 1);
    if (!d) return;
    e.preventDefault();
    e.stopPropagation();
    const p = markHandles(m, height)[h];
    onChange(moveHandle(m, h, { x: p.x + d[0], y: p.y + d[1] }));
  };
  return (
    <g>
      <g
        role="button"
        tabIndex={0}
        aria-label={name}
        aria-pressed={selected}
        data-testid={`mark-${i}`}
        className="cursor-move outline-none focus:[&>*:first-child]:opacity-60"
        onFocus={onSelect}
        onKeyDown={onKeyDown}
        onPointerDown={(e) => onGrab(e, null)}
      >
        <MarkHitArea mark={m} strokeWidth={sw} height={height} disabled={disabled} />
        <MarkShape mark={m} color={toolColor(tools, m.tool)} strokeWidth={selected ? sw * 1.8 : sw} height={height} />
      </g>
      {selected &&
        markHandles(m, height).map((h, k) => (
          <circle
            key={k}
            role="button"
            tabIndex={0}
            aria-label={`Resize handle ${k + 1} of ${toolLabel(tools, m.tool)} ${i + 1}`}
            data-testid={`mark-${i}-handle-${k}`}
            cx={h.x}
            cy={h.y}
            r={handleRadius}
            fill="white"
            stroke={toolColor(tools, m.tool)}
            strokeWidth={sw}
            className="cursor-pointer focus:outline-none focus:[stroke:black]"
            style={disabled ? { pointerEvents: "none" } : undefined}
            onKeyDown={(e) => onHandleKey(e, k)}
            onPointerDown={(e) => onGrab(e, k)}
          />
        ))}
    </g>
  );
}

/** The layer's buttons outside the image: finish or cancel the shape being drawn, delete the selected mark. */
function DrawingButtons({
  drawingPath,
  markSelected,
  onFinish,
  onCancel,
  onDelete,
}: {
  drawingPath: boolean;
  markSelected: boolean;
  onFinish(): void;
  onCancel(): void;
  onDelete(): void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {drawingPath && (
        <>
          <button
            type="button"
            className={
              "rounded border border-gray-300 bg-white px-3 py-1 text-sm font-semibold shadow " +
              "focus:outline focus:outline-2 focus:outline-brand-600"
            }
            onClick={onFinish}
          >
            Finish shape
          </button>
          <button type="button" className="rounded border border-gray-300 bg-white px-3 py-1 text-sm shadow" onClick={onCancel}>
            Cancel shape
          </button>
        </>
      )}
      {markSelected && (
        <button
          type="button"
          className="rounded border border-gray-300 bg-white px-3 py-1 text-sm shadow focus:outline focus:outline-2 focus:outline-brand-600"
          onClick={onDelete}
        >
          Delete selected mark
        </button>
      )}
    </div>
  );
}

/** What a drag or a path being drawn would make, drawn dashed (null: nothing being drawn). */
function preview(drag: Drag | null, path: Pt[], toolType: ToolType, base: Parameters<typeof markFromPath>[1]): Mark | null {
  if (drag?.kind === "draw") return markFromDrag(toolType, base, drag.from, drag.to);
  if (drag?.kind === "free") return markFromPath("polyline", base, drag.points);
  return path.length >= 2 ? markFromPath("polyline", base, path) : null;
}

/** The shape being drawn: its preview, the vertices placed, a drag tool's first corner, and the keyboard's crosshair. */
function Sketch({
  mark,
  path,
  anchor,
  cursor,
  color,
  strokeWidth: sw,
  height,
}: {
  mark: Mark | null;
  path: Pt[];
  anchor: Pt | null;
  cursor: Pt | null;
  color: string;
  strokeWidth: number;
  height: number;
}) {
  return (
    <>
      {mark && <MarkShape mark={mark} color={color} strokeWidth={sw} height={height} dashed />}
      {path.map((p, i) => (
        <circle key={i} cx={p.x} cy={p.y} r={sw * 2} fill={color} aria-hidden />
      ))}
      {anchor && <circle cx={anchor.x} cy={anchor.y} r={sw * 2} fill={color} aria-hidden />}
      {cursor && (
        <g stroke="white" strokeWidth={2} aria-hidden>
          <line x1={cursor.x - 12} y1={cursor.y} x2={cursor.x + 12} y2={cursor.y} />
          <line x1={cursor.x} y1={cursor.y - 12} x2={cursor.x} y2={cursor.y + 12} />
        </g>
      )}
    </>
  );
}
