"use client";
import { useReactFlow, useStore, type EdgeChange } from "@xyflow/react";
import { useEffect, useState, type CSSProperties, type KeyboardEvent } from "react";
import { buttonClass } from "@/components/ui/controls";
import { fitViewport, MIN_ZOOM, type Box } from "@/lib/lab/graph-view";

/** A node's focus ring (React Flow's style removes the outline of a focused node). */
export const FOCUS_RING =
  "rounded-md focus-visible:outline-3! focus-visible:outline-solid! focus-visible:outline-brand-600! focus-visible:outline-offset-2!";

/**
 * What both building canvases (the workflow graph, the engine flow) set on React Flow: our own layout and
 * fit (nodes not dragged, no zoom on scroll, which would trap the page's scrolling), deletion by our own
 * confirmed keyboard handler, connections made by dropping near a handle, and links that can be removed
 * focusable (each link says so with its own `focusable` and `selectable`).
 */
export const CANVAS_PROPS = {
  minZoom: MIN_ZOOM,
  maxZoom: 1.5,
  nodesDraggable: false,
  edgesFocusable: false,
  deleteKeyCode: null,
  zoomOnScroll: false,
  preventScrolling: false,
  connectionRadius: 40,
} as const;

/** What Delete removes on a canvas: the question to confirm, or null for a node or link that cannot be removed; then the removal. */
export interface Removal {
  question(id: string): string | null;
  remove(id: string): void;
}

/** Asks `removal`'s question and removes `id` once confirmed; false when it cannot be removed. */
function confirmRemoval(removal: Removal, id: string): boolean {
  const question = removal.question(id);
  if (question === null) return false;
  if (window.confirm(question)) removal.remove(id);
  return true;
}

/**
 * A building canvas's keyboard, on the element around it: Enter opens the focused node's form, Delete (or
 * Backspace) removes the focused node or link once confirmed (`open` ignores the nodes that have no form).
 */
export function canvasKeys(open: (id: string) => void, node: Removal, link: Removal) {
  return (e: KeyboardEvent) => {
    const element = (e.target as HTMLElement).closest(".react-flow__node, .react-flow__edge");
    const id = element?.getAttribute("data-id");
    if (!element || !id) return;
    const isLink = element.classList.contains("react-flow__edge");
    if (e.key === "Enter" && !isLink) {
      e.preventDefault();
      open(id);
    } else if ((e.key === "Delete" || e.key === "Backspace") && confirmRemoval(isLink ? link : node, id)) e.preventDefault();
  };
}

/**
 * The link selected on a canvas (by a click, or Enter on a focused link: React Flow reports it as a change
 * of the links, which our canvases hold themselves). `ids`: the links drawn now; a removed one is no longer selected.
 */
export function useSelectedLink(ids: string[]) {
  const [selected, setSelected] = useState<string | null>(null);
  const onEdgesChange = (changes: EdgeChange[]) => {
    for (const c of changes) if (c.type === "select") setSelected((s) => (c.selected ? c.id : s === c.id ? null : s));
  };
  return { selected: selected && ids.includes(selected) ? selected : null, onEdgesChange };
}

/** A link's stroke: grey, dashed when drawn rather than made; thicker and in the brand colour when selected or focused. */
export function linkLook(selected: boolean, dashed: boolean) {
  const color = selected ? "var(--color-brand-600)" : "#6b7280";
  return {
    style: { stroke: color, strokeWidth: selected ? 3 : 1.5, strokeDasharray: dashed ? "4 3" : undefined } as CSSProperties,
    markerEnd: { type: "arrowclosed" as never, color },
    className: "[&:focus-visible_.react-flow__edge-path]:stroke-[3px]! [&:focus-visible_.react-flow__edge-path]:stroke-brand-600!",
  };
}

/** Under a canvas's buttons: the selected link's name and its "Remove link" button (confirmed as Delete is). */
export function SelectedLinkBar({ selected, name, removal }: { selected: string | null; name: string; removal: Removal }) {
  return (
    <div aria-live="polite" className="min-h-9 text-sm">
      {selected && (
        <div className="flex flex-wrap items-center gap-2">
          <span>
            Selected: <span className="font-medium">{name}</span>
          </span>
          <button type="button" className={buttonClass} onClick={() => confirmRemoval(removal, selected)}>
            Remove link
          </button>
        </div>
      )}
    </div>
  );
}

/** A graph's canvas height for its laid-out height: room for all of it at full size, within 200-560 px (zoomed out beyond). */
export const graphHeight = (contentHeight: number) => Math.min(600, Math.max(240, contentHeight + 32 + CONTROLS));

/** The strip at the top of a canvas kept for its zoom controls (<Controls position="top-left" orientation="horizontal">). */
const CONTROLS = 48;

/**
 * Inside a <ReactFlow>: shows the whole graph (`bounds`, known from its layout) whenever it or the canvas's
 * size changes, never zoomed in beyond 1, so adding a node never leaves the view clipped. Marks the canvas
 * (`data-ready`) once it runs in the browser.
 */
export function FitOnChange({ bounds }: { bounds: Box }) {
  const { setViewport } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const { x, y, width: w, height: h } = bounds;
  useEffect(() => {
    if (!width || !height) return;
    void setViewport(fitViewport({ x, y, width: w, height: h }, { width, height }, 16, CONTROLS));
  }, [x, y, w, h, width, height, setViewport]);
  return null;
}
