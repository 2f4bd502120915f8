"use client";
import { useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import type { Mark } from "@/lib/classifier/task-flow";

export interface Dimensions {
  naturalWidth: number;
  naturalHeight: number;
  clientWidth: number;
  clientHeight: number;
}

export interface DrawingState {
  /** The chosen tool's index in the task and its type. */
  tool: number;
  toolType: "point" | "rectangle";
  label: string;
  color: string;
  marks: Mark[];
  onAdd(mark: Mark): void;
}

/**
 * One subject: its media, a frame at a time, and (during a drawing task) an SVG layer in the image's own
 * pixel coordinates. Marks are placed with the pointer (click a point, drag a rectangle) or the keyboard
 * (arrow keys move a crosshair, Enter places a point or a rectangle's corners).
 */
export function SubjectViewer({
  locations,
  subjectLabel,
  frame,
  onFrame,
  drawing,
  onDimensions,
}: {
  locations: Record<string, string>[];
  subjectLabel: string;
  frame: number;
  onFrame(frame: number): void;
  drawing: DrawingState | null;
  onDimensions(frame: number, d: Dimensions): void;
}) {
  const [failed, setFailed] = useState<Record<number, boolean>>({});
  const [size, setSize] = useState<Record<number, { w: number; h: number }>>({});
  const [cursor, setCursor] = useState<{ x: number; y: number } | null>(null);
  const [anchor, setAnchor] = useState<{ x: number; y: number } | null>(null);
  const [drag, setDrag] = useState<{ x: number; y: number } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const [mime, url] = Object.entries(locations[frame] ?? {})[0] ?? ["", ""];
  const dims = size[frame];

  const toImage = (e: PointerEvent<SVGSVGElement>) => {
    const box = svg.current!.getBoundingClientRect();
    return { x: round(((e.clientX - box.left) / box.width) * dims!.w), y: round(((e.clientY - box.top) / box.height) * dims!.h) };
  };
  const add = (a: { x: number; y: number }, b?: { x: number; y: number }) => {
    if (!drawing) return;
    if (drawing.toolType === "point" || !b) {
      if (drawing.toolType === "point") drawing.onAdd({ tool: drawing.tool, toolType: "point", x: a.x, y: a.y, frame, details: [] });
      return;
    }
    const x = Math.min(a.x, b.x);
    const y = Math.min(a.y, b.y);
    const width = Math.abs(a.x - b.x);
    const height = Math.abs(a.y - b.y);
    if (width < 1 || height < 1) return;
    drawing.onAdd({ tool: drawing.tool, toolType: "rectangle", x, y, width, height, frame, details: [] });
  };

  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    if (!drawing || !dims) return;
    const step = e.shiftKey ? 50 : 10;
    const c = cursor ?? { x: round(dims.w / 2), y: round(dims.h / 2) };
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[e.key]) {
      e.preventDefault();
      setCursor({ x: clamp(c.x + moves[e.key][0], 0, dims.w), y: clamp(c.y + moves[e.key][1], 0, dims.h) });
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (drawing.toolType === "point") add(c);
      else if (!anchor) setAnchor(c);
      else {
        add(anchor, c);
        setAnchor(null);
      }
      setCursor(c);
    } else if (e.key === "Escape") setAnchor(null);
  };

  return (
    <figure className="flex flex-col gap-2">
      <div className="relative overflow-hidden rounded-lg border border-gray-200 bg-gray-900">
        {mime.startsWith("image/") ? (
          failed[frame] ? (
            <p role="alert" className="flex min-h-48 items-center justify-center p-6 text-center text-gray-100">
              This image could not be loaded. You can still answer, or move on with “Done”.
            </p>
          ) : (
            // eslint-disable-next-line @next/next/no-img-element -- subject media are arbitrary URLs of any size
            <img
              key={url}
              src={url}
              alt={`${subjectLabel}, image ${frame + 1} of ${locations.length}`}
              className="mx-auto block max-h-[70vh] w-auto max-w-full select-none"
              draggable={false}
              onLoad={(e) => {
                const img = e.currentTarget;
                setSize((s) => ({ ...s, [frame]: { w: img.naturalWidth, h: img.naturalHeight } }));
                onDimensions(frame, { naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, clientWidth: img.clientWidth, clientHeight: img.clientHeight });
              }}
              onError={() => setFailed((f) => ({ ...f, [frame]: true }))}
            />
          )
        ) : mime.startsWith("video/") ? (
          <video src={url} controls className="mx-auto block max-h-[70vh] max-w-full" aria-label={`${subjectLabel}, video`} />
        ) : mime.startsWith("audio/") ? (
          <audio src={url} controls className="m-6 w-[90%]" aria-label={`${subjectLabel}, audio`} />
        ) : (
          <p className="p-6 text-gray-100">
            <a className="underline" href={url} target="_blank" rel="noreferrer">
              Open this subject&apos;s {mime || "file"}
            </a>
          </p>
        )}
        {drawing && dims && !failed[frame] && mime.startsWith("image/") && (
          <svg
            ref={svg}
            role="application"
            aria-label={`Drawing layer: ${drawing.label}. Click to place a ${drawing.toolType === "point" ? "point" : "rectangle corner, drag for the other"}; or use the arrow keys and Enter.`}
            tabIndex={0}
            viewBox={`0 0 ${dims.w} ${dims.h}`}
            preserveAspectRatio="none"
            className="absolute inset-0 m-auto h-full max-h-[70vh] w-auto max-w-full cursor-crosshair touch-none focus:outline focus:outline-4 focus:outline-brand-600"
            style={{ aspectRatio: `${dims.w} / ${dims.h}` }}
            data-testid="drawing-layer"
            onKeyDown={onKey}
            onPointerDown={(e) => {
              e.currentTarget.setPointerCapture(e.pointerId);
              const p = toImage(e);
              if (drawing.toolType === "point") add(p);
              else {
                setAnchor(p);
                setDrag(p);
              }
            }}
            onPointerMove={(e) => anchor && drag && setDrag(toImage(e))}
            onPointerUp={(e) => {
              if (drawing.toolType === "rectangle" && anchor) add(anchor, toImage(e));
              setAnchor(null);
              setDrag(null);
            }}
          >
            {drawing.marks
              .filter((m) => m.frame === frame)
              .map((m, i) =>
                m.toolType === "point" ? (
                  <circle key={i} cx={m.x} cy={m.y} r={Math.max(4, dims.w / 120)} fill="none" stroke={drawing.color} strokeWidth={Math.max(2, dims.w / 400)} />
                ) : (
                  <rect key={i} x={m.x} y={m.y} width={m.width} height={m.height} fill="none" stroke={drawing.color} strokeWidth={Math.max(2, dims.w / 400)} />
                ),
              )}
            {anchor && drag && (
              <rect x={Math.min(anchor.x, drag.x)} y={Math.min(anchor.y, drag.y)} width={Math.abs(anchor.x - drag.x)} height={Math.abs(anchor.y - drag.y)} fill="none" stroke={drawing.color} strokeDasharray="6 4" strokeWidth={2} />
            )}
            {cursor && (
              <g stroke="white" strokeWidth={2} aria-hidden>
                <line x1={cursor.x - 12} y1={cursor.y} x2={cursor.x + 12} y2={cursor.y} />
                <line x1={cursor.x} y1={cursor.y - 12} x2={cursor.x} y2={cursor.y + 12} />
              </g>
            )}
          </svg>
        )}
      </div>
      {locations.length > 1 && (
        <div role="group" aria-label="Images of this subject" className="flex flex-wrap gap-2">
          {locations.map((_, i) => (
            <button
              key={i}
              type="button"
              aria-pressed={i === frame}
              onClick={() => onFrame(i)}
              className={`rounded border px-3 py-1 text-sm ${i === frame ? "border-brand-600 bg-brand-50 font-semibold" : "border-gray-300 bg-white hover:bg-gray-100"}`}
            >
              Image {i + 1}
            </button>
          ))}
        </div>
      )}
    </figure>
  );
}

const round = (n: number) => Math.round(n * 100) / 100;
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
