"use client";
import { useNodesInitialized, useReactFlow } from "@xyflow/react";
import { useEffect } from "react";

/** A graph's canvas height for its laid-out height: room for all of it at full size, within 200-560 px (zoomed out beyond). */
export const graphHeight = (contentHeight: number) => Math.min(560, Math.max(200, contentHeight + 60));

/**
 * Inside a <ReactFlow>: fits the whole graph to view whenever its layout (`signature`) changes and the new
 * nodes are measured, not only on the first draw, so adding a node never leaves the view zoomed in and clipped.
 */
export function FitOnChange({ signature }: { signature: string }) {
  const { fitView } = useReactFlow();
  const measured = useNodesInitialized();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the layout's signature is what changes the view
  useEffect(() => {
    if (!measured) return;
    // Two frames: the canvas's own size (which follows the layout's height) is measured first.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => void fitView({ padding: 0.08, maxZoom: 1 }));
    });
    return () => cancelAnimationFrame(frame);
  }, [signature, measured, fitView]);
  return null;
}
