"use client";
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import type { DrawingState } from "./drawing/drawing-layer";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { useSubjectText } from "./subject-text";
import { lazyPart } from "./lazy-part";
import { Alert } from "@/components/ui/alert";
import { QueryState } from "@/components/ui/query-state";

// The drawing layer, its subtask popup and the frame controls load when a subject needs them.
const DrawingLayer = lazyPart(() => import("./drawing/drawing-layer").then((m) => m.DrawingLayer));
const DetailsPopup = lazyPart(() => import("./drawing/details-popup").then((m) => m.DetailsPopup));
const FrameControls = lazyPart(() => import("./viewer/frame-controls").then((m) => m.FrameControls));

export type { DrawingState } from "./drawing/drawing-layer";

export interface Dimensions {
  naturalWidth: number;
  naturalHeight: number;
  clientWidth: number;
  clientHeight: number;
}

interface View {
  zoom: number;
  rotation: number;
  panX: number;
  panY: number;
  invert: boolean;
}
const START: View = { zoom: 1, rotation: 0, panX: 0, panY: 0, invert: false };
const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8];
const tool =
  "flex h-8 w-8 items-center justify-center rounded border border-gray-300 bg-white text-gray-800 hover:bg-gray-100 " +
  "focus:outline focus:outline-2 focus:outline-brand-600 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 " +
  "disabled:opacity-50 lg:h-10 lg:w-10";
// The tools' icons (24 × 24, stroked): each button is named by its aria-label and titled for a mouse.
const ICONS: Record<string, string> = {
  zoomIn: "M10 4a6 6 0 1 0 0 12a6 6 0 1 0 0-12M14.5 14.5L20 20M7 10h6M10 7v6",
  zoomOut: "M10 4a6 6 0 1 0 0 12a6 6 0 1 0 0-12M14.5 14.5L20 20M7 10h6",
  rotate: "M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5",
  invert: "M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16M12 4v16",
  move: "M12 3v18M3 12h18M9 6l3-3l3 3M9 18l3 3l3-3M6 9l-3 3l3 3M18 9l3 3l-3 3",
  reset: "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5",
};
function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
      <path d={ICONS[name]} />
      {name === "invert" && <path d="M12 4a8 8 0 0 1 0 16z" fill="currentColor" />}
    </svg>
  );
}

/** The media type and address of one frame: a location is `{mime: url}`. */
export const frameMedia = (location: Record<string, string> | undefined): [string, string] =>
  (Object.entries(location ?? {})[0] as [string, string]) ?? ["", ""];

/**
 * One subject: its media a frame at a time, chosen by the location's mime type (images, text/plain shown
 * as text, audio and video with native controls), a toolbar to zoom, rotate, invert and reset the image
 * and to pan it (drag in "Move image" mode, or the arrow keys on the focused image), the frame switcher
 * and flipbook of multi-frame subjects, and the drawing layer of a drawing task. As the established
 * classifier lays it out, the image takes the room and its tools are a column of buttons beside it; the
 * image is scaled to the column's width, no taller than a share of the screen (a third on a phone, so the
 * task stays in the first screen below it).
 * Zoom, pan and rotation are a CSS transform of the image and its drawing layer together, so marks stay
 * on the image and are recorded in the image's own pixels.
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
  const [view, setView] = useState<View>(START);
  const [panning, setPanning] = useState(false);
  const [details, setDetails] = useState<number | null>(null);
  const [controls, setControls] = useState<HTMLDivElement | null>(null);
  const drag = useRef<{ x: number; y: number; panX: number; panY: number } | null>(null);
  const figure = useRef<HTMLElement>(null);
  const closeDetails = () => {
    setDetails(null);
    figure.current?.querySelector<SVGSVGElement>("[data-testid=drawing-layer]")?.focus();
  };
  const local = useUploadUrl();
  const [mime, located] = frameMedia(locations[frame]);
  const url = local(located);
  const isImage = mime.startsWith("image/");
  const text = useSubjectText(mime.startsWith("text/") ? url : null);
  const dims = size[frame];
  const fits = !!dims && dims.w > 0 && dims.h > 0;
  const image = useRef<HTMLImageElement>(null);
  const report = useRef(onDimensions);
  report.current = onDimensions;
  // The subject's dimensions as recorded with the classification: its own pixels and the size shown (once
  // scaled to the viewer).
  useEffect(() => {
    const img = image.current;
    if (!dims || !img) return;
    report.current(frame, { naturalWidth: dims.w, naturalHeight: dims.h, clientWidth: img.clientWidth, clientHeight: img.clientHeight });
  }, [dims, frame]);
  const movable = panning || !drawing;

  const zoomBy = (dir: 1 | -1) =>
    setView((v) => {
      const i = ZOOMS.findIndex((z) => z >= v.zoom);
      return { ...v, zoom: ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, (i < 0 ? ZOOMS.length - 1 : i) + dir))] };
    });
  const onViewportKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return;
    const s = e.shiftKey ? 100 : 25;
    const d: Record<string, [number, number]> = { ArrowLeft: [-s, 0], ArrowRight: [s, 0], ArrowUp: [0, -s], ArrowDown: [0, s] };
    if (d[e.key]) {
      e.preventDefault();
      setView((v) => ({ ...v, panX: v.panX + d[e.key][0], panY: v.panY + d[e.key][1] }));
    } else if (e.key === "+" || e.key === "=") zoomBy(1);
    else if (e.key === "-") zoomBy(-1);
  };
  const onPanStart = (e: PointerEvent<HTMLDivElement>) => {
    if (!movable || !isImage) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, panX: view.panX, panY: view.panY };
  };
  const onPanMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) setView((v) => ({ ...v, panX: d.panX + e.clientX - d.x, panY: d.panY + e.clientY - d.y }));
  };
  const marks = drawing?.marks ?? [];
  const detailMark = details !== null ? marks[details] : undefined;
  const detailTool = detailMark && drawing ? drawing.tools[detailMark.tool] : undefined;

  return (
    <figure ref={figure} className="flex flex-col gap-2">
      {/* The tools come first for the keyboard (as above the image before), and show to the image's right. */}
      <div className="flex flex-row-reverse items-start gap-2">
        {isImage && (
          <ImageToolbar
            view={view}
            onView={setView}
            onZoom={zoomBy}
            panning={drawing ? panning : null}
            onPanning={() => setPanning((p) => !p)}
          />
        )}
        {/* On a large screen the image may be as tall as the screen less what is above it (the site's header,
            the page's heading: about 7.6rem; the help buttons are in the task column), so a landscape image
            is at least 60 % of a 1280 × 720 screen's width, all of it in the first screen. */}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the viewport pans by pointer drag and by the arrow keys (focusable when an image) */}
        {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is group whenever the aria-label is set; the rule can't see that */}
        <div
          className={
            "relative flex min-h-40 min-w-0 flex-1 items-center justify-center overflow-hidden rounded-lg border " +
            "[--subject-h:27svh] sm:[--subject-h:50svh] lg:[--subject-h:min(85vh,calc(100vh_-_8rem))] " +
            // Its ring, outside it, shows for the drawing area inside too (whose own the overflow would clip).
            "border-gray-200 bg-gray-900 has-[[data-testid=drawing-layer]:focus-visible]:outline-3 " +
            "has-[[data-testid=drawing-layer]:focus-visible]:outline-offset-2 has-[[data-testid=drawing-layer]:focus-visible]:outline-brand-600 " +
            `has-[[data-testid=drawing-layer]:focus-visible]:outline-solid ${movable && isImage ? "cursor-grab touch-none" : ""}`
          }
          tabIndex={isImage ? 0 : undefined}
          aria-label={isImage ? `${subjectLabel}: arrow keys move the image, + and - zoom` : undefined}
          role={isImage ? "group" : undefined}
          data-testid="subject-viewport"
          onKeyDown={isImage ? onViewportKey : undefined}
          onPointerDown={onPanStart}
          onPointerMove={onPanMove}
          onPointerUp={() => (drag.current = null)}
          onPointerCancel={() => (drag.current = null)}
        >
          {isImage ? (
            failed[frame] ? (
              <Alert className="m-6 text-center">This image could not be loaded. You can still answer, or move on with “Done”.</Alert>
            ) : (
              <div
                className="relative w-fit origin-center transition-transform duration-75"
                style={{
                  transform: `translate(${view.panX}px, ${view.panY}px) rotate(${view.rotation}deg) scale(${view.zoom})`,
                  // Once its size is known, the image fills the width, up to the height the screen allows.
                  ...(fits ? { width: `min(100%, calc(var(--subject-h) * ${dims.w / dims.h}))` } : {}),
                }}
                data-testid="subject-transform"
              >
                <img
                  key={url}
                  src={url}
                  // biome-ignore lint/a11y/noRedundantAlt: "image 2 of 3" names the frame's place among the subject's images, not the element
                  alt={`${subjectLabel}, image ${frame + 1} of ${locations.length}`}
                  className={`block select-none ${fits ? "h-auto w-full" : "max-h-(--subject-h) w-auto max-w-full"}`}
                  style={view.invert ? { filter: "invert(1)" } : undefined}
                  draggable={false}
                  ref={image}
                  onLoad={(e) => {
                    const img = e.currentTarget;
                    setSize((s) => ({ ...s, [frame]: { w: img.naturalWidth, h: img.naturalHeight } }));
                  }}
                  onError={() => setFailed((f) => ({ ...f, [frame]: true }))}
                />
                {drawing && dims && (
                  <DrawingLayer
                    drawing={drawing}
                    frame={frame}
                    width={dims.w}
                    height={dims.h}
                    onDetails={setDetails}
                    controls={controls}
                    disabled={movable}
                    zoom={view.zoom}
                  />
                )}
              </div>
            )
          ) : mime.startsWith("video/") ? (
            // biome-ignore lint/a11y/useMediaCaption: subject media are the project's uploads, which come with no caption track to give
            <video src={url} controls className="block max-h-[70vh] max-w-full" aria-label={`${subjectLabel}, video`} />
          ) : mime.startsWith("audio/") ? (
            // biome-ignore lint/a11y/useMediaCaption: subject media are the project's uploads, which come with no caption track to give
            <audio src={url} controls className="m-6 w-[90%]" aria-label={`${subjectLabel}, audio`} />
          ) : mime.startsWith("text/") ? (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus so a keyboard can scroll it
            <section className="max-h-[70vh] w-full overflow-auto bg-white p-4" aria-label={`${subjectLabel}, text`} tabIndex={0}>
              <QueryState query={text} what="text">
                <pre className="whitespace-pre-wrap font-serif text-base" data-testid="subject-text">
                  {text.data}
                </pre>
              </QueryState>
            </section>
          ) : (
            <p className="p-6 text-gray-100">
              <a className="underline" href={url} target="_blank" rel="noreferrer">
                Open this subject&apos;s {mime || "file"}
              </a>
            </p>
          )}
        </div>
      </div>
      <div ref={setControls} aria-label="Mark tools" role="group" className="empty:hidden" />
      {drawing && detailMark && detailTool?.details?.length ? (
        <DetailsPopup
          mark={detailMark}
          index={details!}
          tool={detailTool}
          onChange={(m) => drawing.onChange(marks.map((x, j) => (j === details ? m : x)))}
          onClose={closeDetails}
          onDelete={() => {
            drawing.onChange(marks.filter((_, j) => j !== details));
            closeDetails();
          }}
        />
      ) : null}
      {locations.length > 1 && <FrameControls count={locations.length} frame={frame} onFrame={onFrame} />}
    </figure>
  );
}

/**
 * The image's tools, a column of icon buttons: zoom, rotate, invert, (over a drawing task) "Move image", and
 * reset; the view's state is announced.
 */
function ImageToolbar({
  view,
  onView,
  onZoom,
  panning,
  onPanning,
}: {
  view: View;
  onView(change: View | ((v: View) => View)): void;
  onZoom(dir: 1 | -1): void;
  /** Whether "Move image" is on; null: no such button (nothing to draw on, so the image always moves). */
  panning: boolean | null;
  onPanning(): void;
}) {
  return (
    <div role="toolbar" aria-label="Image tools" className="flex shrink-0 flex-col gap-1 lg:gap-2">
      <button
        type="button"
        className={tool}
        aria-label="Zoom in"
        title="Zoom in (+)"
        onClick={() => onZoom(1)}
        disabled={view.zoom >= ZOOMS[ZOOMS.length - 1]}
      >
        <Icon name="zoomIn" />
      </button>
      <button
        type="button"
        className={tool}
        aria-label="Zoom out"
        title="Zoom out (-)"
        onClick={() => onZoom(-1)}
        disabled={view.zoom <= ZOOMS[0]}
      >
        <Icon name="zoomOut" />
      </button>
      <button
        type="button"
        className={tool}
        aria-label="Rotate"
        title="Rotate 90°"
        onClick={() => onView((v) => ({ ...v, rotation: (v.rotation + 90) % 360 }))}
      >
        <Icon name="rotate" />
      </button>
      <button
        type="button"
        className={tool}
        aria-label="Invert colours"
        title="Invert colours"
        aria-pressed={view.invert}
        onClick={() => onView((v) => ({ ...v, invert: !v.invert }))}
      >
        <Icon name="invert" />
      </button>
      {panning !== null && (
        <button
          type="button"
          className={tool}
          aria-label="Move image"
          title="Move image (drag, or arrow keys)"
          aria-pressed={panning}
          onClick={onPanning}
        >
          <Icon name="move" />
        </button>
      )}
      <button type="button" className={tool} aria-label="Reset view" title="Reset view" onClick={() => onView(START)}>
        <Icon name="reset" />
      </button>
      <span className="sr-only" role="status" aria-live="polite" data-testid="view-state">
        {`Zoom ${Math.round(view.zoom * 100)}%, rotated ${view.rotation}°${view.invert ? ", colours inverted" : ""}`}
      </span>
    </div>
  );
}
