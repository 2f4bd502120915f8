import { describe, expect, it } from "vitest";
import { fitViewport, MIN_ZOOM } from "./graph-view";

describe("fitViewport", () => {
  it.each([
    [
      "a small graph at full size, centred",
      { x: 0, y: 0, width: 200, height: 100 },
      { width: 600, height: 300 },
      { x: 200, y: 100, zoom: 1 },
    ],
    [
      "a wide graph shrunk to the width",
      { x: 0, y: 0, width: 1136, height: 100 },
      { width: 600, height: 300 },
      { x: 16, y: 125, zoom: 0.5 },
    ],
    [
      "a tall graph shrunk to the height",
      { x: 0, y: 0, width: 100, height: 536 },
      { width: 600, height: 300 },
      { x: 275, y: 16, zoom: 0.5 },
    ],
    ["content not at the origin", { x: 100, y: 50, width: 200, height: 100 }, { width: 600, height: 300 }, { x: 100, y: 50, zoom: 1 }],
  ])("%s", (_what, content, size, view) => {
    expect(fitViewport(content, size)).toEqual(view);
  });

  it("keeps a strip at the top free", () => {
    expect(fitViewport({ x: 0, y: 0, width: 200, height: 100 }, { width: 600, height: 344 }, 16, 44)).toEqual({ x: 200, y: 144, zoom: 1 });
  });

  it("never shrinks below the minimum zoom (a huge graph is panned instead)", () => {
    expect(fitViewport({ x: 0, y: 0, width: 100_000, height: 100 }, { width: 600, height: 300 }).zoom).toBe(MIN_ZOOM);
  });

  it.each([
    [
      { x: 0, y: 0, width: 780, height: 400 },
      { width: 930, height: 460 },
    ],
    [
      { x: -20, y: 10, width: 1500, height: 900 },
      { width: 375, height: 560 },
    ],
  ])("keeps all of %j inside %j (when the minimum allows)", (content, size) => {
    const v = fitViewport(content, size);
    expect(content.x * v.zoom + v.x).toBeGreaterThanOrEqual(0);
    expect(content.y * v.zoom + v.y).toBeGreaterThanOrEqual(0);
    expect((content.x + content.width) * v.zoom + v.x).toBeLessThanOrEqual(size.width + 1e-9);
    expect((content.y + content.height) * v.zoom + v.y).toBeLessThanOrEqual(size.height + 1e-9);
  });
});
