// Fitting a laid-out graph into its canvas, free of React: the viewport (pan and zoom) that shows all of it
// centred with a margin, never enlarged beyond its own size and never shrunk below a legible minimum (a
// larger graph is then panned).

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const MIN_ZOOM = 0.2;

/**
 * The viewport showing `content` whole in a canvas of `size`: zoom at most 1 (and at least MIN_ZOOM), centred,
 * `margin` px around, below a strip of `top` px kept free (for the zoom controls).
 */
export function fitViewport(
  content: Box,
  size: { width: number; height: number },
  margin = 16,
  top = 0,
): { x: number; y: number; zoom: number } {
  const height = size.height - top;
  const fit = Math.min((size.width - 2 * margin) / Math.max(1, content.width), (height - 2 * margin) / Math.max(1, content.height));
  const zoom = Math.max(MIN_ZOOM, Math.min(1, fit));
  return {
    x: (size.width - content.width * zoom) / 2 - content.x * zoom,
    y: top + (height - content.height * zoom) / 2 - content.y * zoom,
    zoom,
  };
}
