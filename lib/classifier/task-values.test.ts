// The value shapes of every task type and drawing tool, from the volunteer's answer to the annotation sent.
import { describe, expect, it } from "vitest";
import {
  annotationFor,
  classificationBody,
  emptyDetails,
  emptyValue,
  isAnswered,
  isStepAnswered,
  sliderValue,
  stepTasks,
  type Mark,
  type Task,
  type Tasks,
  type TaskValue,
  type Tool,
} from "./task-flow";
import {
  describeMark,
  markFromDrag,
  markFromPath,
  markHandles,
  moveHandle,
  translateMark,
  type Pt,
  type ToolType,
} from "@/lib/tasks/drawing/marks";

const base = { tool: 0, frame: 1, details: [] };
const a = { x: 10, y: 20 };
const b = { x: 40, y: 60 };

describe("drawing tools: the mark a drag draws, and its annotation", () => {
  it.each<[ToolType, Record<string, unknown>]>([
    ["rectangle", { x: 10, y: 20, width: 30, height: 40 }],
    ["circle", { x: 10, y: 20, r: 50, angle: 0 }],
    ["ellipse", { x: 10, y: 20, rx: 30, ry: 40, angle: 0 }],
    ["line", { x1: 10, y1: 20, x2: 40, y2: 60 }],
    ["transcriptionLine", { x1: 10, y1: 20, x2: 40, y2: 60 }],
    ["column", { x: 10, width: 30 }],
  ])("%s", (toolType, shape) => {
    const mark = markFromDrag(toolType, base, b, a) ?? markFromDrag(toolType, base, a, b);
    const drawn = markFromDrag(toolType, base, a, b)!;
    expect(mark).not.toBeNull();
    expect(drawn).toEqual({ ...base, toolType, ...shape });
    expect(annotationFor({ type: "drawing", tools: [{ type: toolType }] }, "T0", [drawn])).toEqual({
      task: "T0",
      value: [{ tool: 0, frame: 1, details: [], ...shape }],
    });
  });

  it.each<[ToolType, Pt[], Record<string, unknown> | null]>([
    ["polygon", [a, b, { x: 10, y: 60 }], { points: [a, b, { x: 10, y: 60 }], closed: true }],
    ["polygon", [a, b], null],
    ["polyline", [a, b], { points: [a, b], closed: false }],
    ["polyline", [a], null],
    ["freehandLine", [a, { x: 11.234, y: 21 }, b], { points: [a, { x: 11.23, y: 21 }, b] }],
  ])("%s from %j", (toolType, points, shape) => {
    const mark = markFromPath(toolType, base, points);
    expect(mark).toEqual(shape && { ...base, toolType, ...shape });
  });

  it("a point is placed, not dragged; tiny drags draw nothing", () => {
    expect(markFromDrag("point", base, a, b)).toBeNull();
    expect(markFromDrag("rectangle", base, a, { x: 10.5, y: 30 })).toBeNull();
    expect(markFromDrag("circle", base, a, a)).toBeNull();
  });
});

describe("moving and reshaping marks", () => {
  const marks: Mark[] = [
    { ...base, toolType: "point", x: 1, y: 2 },
    { ...base, toolType: "rectangle", x: 1, y: 2, width: 3, height: 4 },
    { ...base, toolType: "circle", x: 1, y: 2, r: 3, angle: 0 },
    { ...base, toolType: "ellipse", x: 1, y: 2, rx: 3, ry: 4, angle: 0 },
    { ...base, toolType: "line", x1: 1, y1: 2, x2: 3, y2: 4 },
    { ...base, toolType: "transcriptionLine", x1: 1, y1: 2, x2: 3, y2: 4 },
    { ...base, toolType: "column", x: 1, width: 3 },
    {
      ...base,
      toolType: "polygon",
      points: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
        { x: 5, y: 2 },
      ],
      closed: true,
    },
    {
      ...base,
      toolType: "polyline",
      points: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
      closed: false,
    },
    {
      ...base,
      toolType: "freehandLine",
      points: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
    },
  ];
  it.each(marks.map((m) => [m.toolType, m] as const))("%s moves as a whole and keeps its size", (_t, m) => {
    const moved = translateMark(m, 10, 20);
    const hs = markHandles(m, 100);
    const hm = markHandles(moved, 100);
    hm.forEach((h, i) => {
      expect(h.x).toBeCloseTo(hs[i].x + 10);
      if (m.toolType !== "column") expect(h.y).toBeCloseTo(hs[i].y + 20);
    });
    if ("x" in m && "x" in moved) expect(moved.x).toBe(m.x + 10);
    expect(describeMark(moved)).toMatch(/\d/);
  });

  it.each<[Mark, number, Pt, Record<string, unknown>]>([
    [marks[1], 1, { x: 11, y: 12 }, { x: 1, y: 2, width: 10, height: 10 }],
    [marks[1], 0, { x: 20, y: 20 }, { x: 4, y: 6, width: 16, height: 14 }],
    [marks[2], 0, { x: 1, y: 12 }, { r: 10 }],
    [marks[3], 0, { x: 1, y: 12 }, { rx: 10, angle: 90 }],
    [marks[3], 1, { x: 1, y: 12 }, { ry: 10, angle: 0 }],
    [marks[4], 1, { x: 9, y: 9 }, { x1: 1, y1: 2, x2: 9, y2: 9 }],
    [marks[6], 0, { x: 10, y: 0 }, { x: 4, width: 6 }],
    [
      marks[7],
      2,
      { x: 9, y: 9 },
      {
        points: [
          { x: 1, y: 2 },
          { x: 3, y: 4 },
          { x: 9, y: 9 },
        ],
      },
    ],
  ])("%j: handle %i to %j", (m, i, p, changed) => {
    expect(moveHandle(m, i, p)).toMatchObject(changed);
    expect(markHandles(moveHandle(m, i, p))[i]).toMatchObject(
      ["rectangle", "column", "circle"].includes(m.toolType) ? {} : { x: expect.closeTo(p.x), y: expect.closeTo(p.y) },
    );
  });
});

describe("task value shapes", () => {
  const slider: Task = { type: "slider", instruction: "How bright?", min: "0", max: "10", step: "0.5", defaultValue: "5" };
  const shortcut: Task = { type: "shortcut", answers: [{ label: "Nothing here" }, { label: "Broken image" }] };
  const highlighter: Task = { type: "highlighter", instruction: "Names", highlighterLabels: [{ label: "Person", color: "#f00" }] };
  const highlight = { start: 4, end: 9, text: "Alice", labelInformation: { label: "Person", color: "#f00" } };
  const drawing: Task = {
    type: "drawing",
    tools: [{ type: "point", details: [{ type: "single", question: "?", answers: [{ label: "a" }] }, { type: "text" }] }],
  };
  const point: Mark = { tool: 0, toolType: "point", x: 1, y: 2, frame: 0, details: [{ value: 0 }, { value: "big" }] };

  it.each<{ name: string; task: Task; empty: TaskValue; emptyOk: boolean; value: TaskValue; ok: boolean; annotation: unknown }>([
    { name: "slider starts at its default", task: slider, empty: 5, emptyOk: true, value: 7.5, ok: true, annotation: 7.5 },
    {
      name: "slider without default starts at min",
      task: { type: "slider", min: 2, max: 4 },
      empty: 2,
      emptyOk: true,
      value: 3,
      ok: true,
      annotation: 3,
    },
    {
      name: "slider value that is not a number",
      task: { type: "slider", min: 2, max: 4 },
      empty: 2,
      emptyOk: true,
      value: "x",
      ok: false,
      annotation: 2,
    },
    { name: "shortcut: chosen indices, sorted", task: shortcut, empty: [], emptyOk: true, value: [1, 0], ok: true, annotation: [0, 1] },
    {
      name: "highlighter: spans with labels",
      task: highlighter,
      empty: [],
      emptyOk: true,
      value: [highlight],
      ok: true,
      annotation: [highlight],
    },
    {
      name: "required highlighter needs a span",
      task: { ...highlighter, required: true },
      empty: [],
      emptyOk: false,
      value: [highlight],
      ok: true,
      annotation: [highlight],
    },
    { name: "text", task: { type: "text", required: true }, empty: "", emptyOk: false, value: "hi", ok: true, annotation: "hi" },
    {
      name: "drawing with subtask answers in details",
      task: drawing,
      empty: [],
      emptyOk: true,
      value: [point],
      ok: true,
      annotation: [{ tool: 0, x: 1, y: 2, frame: 0, details: [{ value: 0 }, { value: "big" }] }],
    },
  ])("$name", ({ task, empty, emptyOk, value, ok, annotation }) => {
    expect(emptyValue(task)).toEqual(empty);
    expect(isAnswered(task, empty)).toBe(emptyOk);
    expect(isAnswered(task, value)).toBe(ok);
    expect(annotationFor(task, "T9", value)).toEqual({ task: "T9", value: annotation });
  });

  it("a tool's subtasks start empty, one {value} each", () => {
    expect(emptyDetails((drawing as { tools: Tool[] }).tools[0])).toEqual([{ value: null }, { value: "" }]);
    expect(emptyDetails(undefined)).toEqual([]);
  });
});

describe("sliderValue", () => {
  it.each([
    { task: { type: "slider", min: "0", max: "10", defaultValue: "5" }, raw: undefined, value: 5 },
    { task: { type: "slider", min: "0", max: "10" }, raw: "12", value: 10 },
    { task: { type: "slider", min: "0", max: "10" }, raw: "-1", value: 0 },
    { task: { type: "slider", min: 0.5, max: 1 }, raw: "0.75", value: 0.75 },
  ])("$raw in $task.min..$task.max is $value", ({ task, raw, value }) => {
    expect(sliderValue(task, raw)).toBe(value);
  });
});

describe("shortcut tasks", () => {
  const tasks: Tasks = {
    T0: { type: "single", question: "What is it?", answers: [{ label: "Cat", next: "T2" }], unlinkedTask: "T1" },
    T1: { type: "shortcut", answers: [{ label: "Nothing here" }] },
    T2: { type: "text" },
  };
  it("show under their question and let the volunteer finish without answering it", () => {
    expect(stepTasks(tasks, "T0")).toEqual(["T0", "T1"]);
    const values: Record<string, TaskValue> = { T0: null, T1: [] };
    expect(isStepAnswered(tasks, ["T0", "T1"], (k) => values[k])).toBe(false);
    values.T1 = [0];
    expect(isStepAnswered(tasks, ["T0", "T1"], (k) => values[k])).toBe(true);
  });
  it("are recorded only when chosen, as {task, value: [indexes]}", () => {
    const body = (T1: number[]) =>
      classificationBody({
        projectId: "1",
        workflowId: "2",
        workflowVersion: "1.1",
        subjectId: "3",
        tasks,
        startedAt: new Date(0),
        finishedAt: new Date(0),
        userAgent: "t",
        userLanguage: "en",
        utcOffset: 0,
        subjectDimensions: [],
        answered: [
          { key: "T0", value: null },
          { key: "T1", value: T1 },
        ],
      }).classifications.annotations;
    expect(body([])).toEqual([{ task: "T0", value: null }]);
    expect(body([0])).toEqual([
      { task: "T0", value: null },
      { task: "T1", value: [0] },
    ]);
  });
});
