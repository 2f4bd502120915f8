// The shape extractor reads the marks our volunteer classifier sends, for every tool it can extract.
import { describe, expect, it } from "vitest";
import { annotationFor, type Mark } from "@/lib/classifier/task-flow";
import { answered } from "../testing";
import { extract, ZExtractorConfig } from "./index";

const base = { tool: 1, frame: 2, details: [{ value: 0 }] };
const marks: [string, Mark, Record<string, unknown>][] = [
  ["point", { ...base, toolType: "point", x: 1, y: 2 }, { x: [1], y: [2] }],
  [
    "rectangle",
    { ...base, toolType: "rectangle", x: 1, y: 2, width: 3, height: 4 },
    { x: [1], y: [2], width: [3], height: [4], angle: [0] },
  ],
  ["circle", { ...base, toolType: "circle", x: 1, y: 2, r: 3, angle: 0 }, { x: [1], y: [2], r: [3] }],
  ["ellipse", { ...base, toolType: "ellipse", x: 1, y: 2, rx: 3, ry: 4, angle: 5 }, { x: [1], y: [2], rx: [3], ry: [4], angle: [5] }],
  ["line", { ...base, toolType: "line", x1: 1, y1: 2, x2: 3, y2: 4 }, { x1: [1], y1: [2], x2: [3], y2: [4] }],
  ["line", { ...base, toolType: "transcriptionLine", x1: 1, y1: 2, x2: 3, y2: 4 }, { x1: [1], y1: [2], x2: [3], y2: [4] }],
  [
    "polygon",
    {
      ...base,
      toolType: "polygon",
      points: [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 1, y: 1 },
      ],
      closed: true,
    },
    {
      points: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
        ],
      ],
    },
  ],
  [
    "polygon",
    {
      ...base,
      toolType: "polyline",
      points: [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
      ],
      closed: false,
    },
    {
      points: [
        [
          [0, 0],
          [1, 0],
        ],
      ],
    },
  ],
  [
    "polygon",
    {
      ...base,
      toolType: "freehandLine",
      points: [
        { x: 0, y: 0 },
        { x: 1, y: 2 },
      ],
    },
    {
      points: [
        [
          [0, 0],
          [1, 2],
        ],
      ],
    },
  ],
];

describe("shape extractor on the classifier's marks", () => {
  it.each(marks)("%s from a %j", (shape, mark, fields) => {
    const { value } = annotationFor({ type: "drawing", tools: [] }, "T0", [mark]);
    const data = Object.fromEntries([...Object.entries(fields).map(([k, v]) => [`T0_tool1_${k}`, v]), ["T0_tool1_frame", [2]]]);
    expect(extract(ZExtractorConfig.parse({ type: "shape", task_key: "T0", shape }), answered("T0", value))).toEqual({
      kind: "data",
      data,
    });
  });
});
