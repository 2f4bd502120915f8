"use client";
import { useReactFlow, useStore } from "@xyflow/react";
import { useEffect, type KeyboardEvent } from "react";
import { fitViewport, MIN_ZOOM, type Box } from "@/lib/lab/graph-view";

/** A node's focus ring (React Flow's style removes the outline of a focused node). */
export const FOCUS_RING =
  "rounded-md focus-visible:outline-3! focus-visible:outline-solid! focus-visible:outline-brand-600! focus-visible:outline-offset-2!";

/**
 * What both building canvases (the workflow graph, the engine flow) set on React Flow: our own layout and
 * fit (nodes not dragged, no zoom on scroll, which would trap the page's scrolling), deletion by our own
 * confirmed keyboard handler, and connections made by dropping near a handle.
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

/**
 * A building canvas's keyboard, on the element around it: Enter opens the focused node's form, Delete (or
 * Backspace) removes the node once confirmed. `removal` answers the question to confirm, or null for a
 * node that cannot be removed (`open` ignores the ones that have no form).
 */
export function nodeKeys(open: (id: string) => void, removal: (id: string) => string | null, remove: (id: string) => void) {
  return (e: KeyboardEvent) => {
    const id = (e.target as HTMLElement).closest(".react-flow__node")?.getAttribute("data-id");
    if (!id) return;
    if (e.key === "Enter") {
      e.preventDefault();
      open(id);
    } else if (e.key === "Delete" || e.key === "Backspace") {
      const question = removal(id);
      if (question === null) return;
      e.preventDefault();
      if (window.confirm(question)) remove(id);
    }
  };
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
