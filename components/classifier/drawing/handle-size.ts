"use client";
import { type RefObject, useEffect, useState } from "react";

/** A drag handle's radius on screen in CSS pixels: for a finger (28 px across, above WCAG 2.5.8's 24), and for a mouse. */
const TOUCH_RADIUS = 14;
const MOUSE_RADIUS = 6;

/**
 * The radius, in the image's pixels, at which a drawn shape's drag handles are TOUCH_RADIUS CSS pixels on
 * screen when a finger works the layer (a coarse primary pointer, or the last press on the layer was a touch),
 * else MOUSE_RADIUS; never less than `least` (what the mark's stroke asks for). It follows the layer's size
 * on screen and the viewer's `zoom` (a CSS transform, which no resize reports).
 */
export function useHandleRadius(svg: RefObject<SVGSVGElement | null>, width: number, zoom: number, least: number): number {
  const [shown, setShown] = useState(0); // the layer's width on screen, before the viewer's transform
  const [touch, setTouch] = useState(false);
  useEffect(() => {
    const el = svg.current;
    if (!el) return;
    const coarse = matchMedia("(pointer: coarse)");
    const onMedia = () => setTouch(coarse.matches);
    const onPointer = (e: PointerEvent) => setTouch(e.pointerType === "touch" || coarse.matches);
    const sized = new ResizeObserver(([entry]) => setShown(entry.contentRect.width));
    onMedia();
    coarse.addEventListener("change", onMedia);
    el.addEventListener("pointerdown", onPointer, { capture: true, passive: true });
    sized.observe(el);
    return () => {
      coarse.removeEventListener("change", onMedia);
      el.removeEventListener("pointerdown", onPointer, { capture: true });
      sized.disconnect();
    };
  }, [svg]);
  const scale = (shown / width) * zoom; // CSS pixels per image pixel
  if (!(scale > 0)) return least;
  return Math.max(least, (touch ? TOUCH_RADIUS : MOUSE_RADIUS) / scale);
}
