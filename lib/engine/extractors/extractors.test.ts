import { describe, expect, it } from "vitest";
import { answered, classification } from "../testing";
import type { ClassificationData } from "../types";
import { extract, ExtractorError, externalRequest, extractors, ZExtractorConfig } from "./index";

const parse = (config: unknown) => ZExtractorConfig.parse(config);
const run = (config: unknown, c: ClassificationData) => extract(parse(config), c);

describe("blank extractor", () => {
  it.each([
    ["no annotations for the task", classification(), true],
    ["empty string", answered("T0", ""), true],
    ["whitespace string", answered("T0", "  \n"), true],
    ["null value", answered("T0", null), true],
    ["empty array (no marks)", answered("T0", []), true],
    ["all empty across annotations", answered("T0", "", [], null), true],
    ["text", answered("T0", "a star"), false],
    ["one mark", answered("T0", [{ x: 1, y: 2, toolIndex: 0 }]), false],
    ["answer index 0", answered("T0", 0), false],
    ["one empty, one filled", answered("T0", "", "x"), false],
  ])("%s", (_name, c, blank) => {
    expect(run({ type: "blank", task_key: "T0" }, c)).toEqual({ kind: "data", data: { blank } });
  });
});

describe("question extractor", () => {
  it.each([
    ["single answer", answered("T0", 1), { "1": 1 }],
    ["answer 0 counts", answered("T0", 0), { "0": 1 }],
    ["multiple answers", answered("T0", [0, 2]), { "0": 1, "2": 1 }],
    ["repeated across annotations", answered("T0", 1, [1, 3]), { "1": 2, "3": 1 }],
    ["string index", answered("T0", "2"), { "2": 1 }],
  ])("%s", (_name, c, data) => {
    expect(run({ type: "question", task_key: "T0" }, c)).toEqual({ kind: "data", data });
  });

  it.each([
    ["error (default) throws", {}, "throw"],
    ["ignore gives empty data", { if_missing: "ignore" }, { kind: "data", data: {} }],
    ["reject skips", { if_missing: "reject" }, "skip"],
  ])("missing answer, if_missing %s", (_name, extra, expected) => {
    const config = { type: "question", task_key: "T0", ...extra };
    for (const c of [classification(), answered("T0", null), answered("OTHER", 1)]) {
      if (expected === "throw") expect(() => run(config, c)).toThrow(ExtractorError);
      else if (expected === "skip") expect(run(config, c).kind).toBe("skip");
      else expect(run(config, c)).toEqual(expected);
    }
  });

  it("accepts annotations in the stored array form", () => {
    const c = classification({ annotations: [{ task: "T0", value: 2 }] as never });
    expect(run({ type: "question", task_key: "T0" }, c)).toEqual({ kind: "data", data: { "2": 1 } });
  });
});

describe("minimum_workflow_version", () => {
  it.each([
    ["2.0", "2.0", "data"],
    ["2.1", "2.0", "data"],
    ["2.10", "2.9", "data"],
    ["10.0", "9.5", "data"],
    ["1.9", "2.0", "skip"],
    ["2.9", "2.10", "skip"],
    ["", "2.0", "skip"],
  ])("classification %s, minimum %s → %s", (version, min, kind) => {
    const c = { ...answered("T0", 1), workflow_version: version, metadata: {} };
    expect(run({ type: "question", task_key: "T0", minimum_workflow_version: min }, c).kind).toBe(kind);
  });

  it("falls back to metadata.workflow_version", () => {
    const c = { ...answered("T0", 1), workflow_version: undefined as unknown as string, metadata: { workflow_version: "3.4" } };
    expect(run({ type: "question", task_key: "T0", minimum_workflow_version: "3.4" }, c).kind).toBe("data");
    expect(run({ type: "question", task_key: "T0", minimum_workflow_version: "3.5" }, c).kind).toBe("skip");
  });

  it("skips before if_missing can throw", () => {
    const c = { ...classification(), workflow_version: "1.0" };
    expect(run({ type: "question", task_key: "T0", minimum_workflow_version: "2.0" }, c).kind).toBe("skip");
  });
});

describe("pluck_field extractor", () => {
  const c = classification({
    annotations: { T0: [{ task: "T0", value: 3 }], T1: [{ task: "T1", value: [{ x: 1 }, { x: 2 }] }] },
    metadata: { user_language: "fr", tags: ["a", "b"] },
    subject: { id: 7, metadata: { name: "alpha", "odd key": "y", size: "5" }, created_at: null, updated_at: null },
  });
  it.each([
    ["subject metadata", { name: "$.subject.metadata.name" }, { name: "alpha" }],
    ["classification metadata", { lang: "$.metadata.user_language" }, { lang: "fr" }],
    ["annotation value by index", { v: "$.annotations.T0[0].value" }, { v: 3 }],
    ["bracket key", { k: "$.subject.metadata['odd key']" }, { k: "y" }],
    ["top-level field", { id: "$.id" }, { id: 100 }],
    ["wildcard, several matches → array", { xs: "$.annotations.T1[0].value[*].x" }, { xs: [1, 2] }],
    ["array value stays a scalar match", { tags: "$.metadata.tags" }, { tags: ["a", "b"] }],
    ["negative index", { last: "$.metadata.tags[-1]" }, { last: "b" }],
    ["several fields", { name: "$.subject.metadata.name", size: "$.subject.metadata.size" }, { name: "alpha", size: "5" }],
  ])("%s", (_name, field_map, data) => {
    expect(run({ type: "pluck_field", field_map }, c)).toEqual({ kind: "data", data });
  });

  it.each([
    ["error", "throw"],
    ["ignore", "data"],
    ["reject", "skip"],
  ])("no match with if_missing %s", (if_missing, expected) => {
    const config = { type: "pluck_field", field_map: { name: "$.subject.metadata.name", nope: "$.subject.metadata.nope" }, if_missing };
    if (expected === "throw") expect(() => run(config, c)).toThrow(/nope/);
    else if (expected === "data") expect(run(config, c)).toEqual({ kind: "data", data: {} });
    else expect(run(config, c).kind).toBe("skip");
  });
});

describe("survey extractor", () => {
  const survey = (...items: unknown[]) => answered("T1", items);
  it.each([
    ["one choice", survey({ choice: "ZEBRA", answers: { HOWMANY: "1" } }), {}, { ZEBRA: 1 }],
    ["two choices", survey({ choice: "ZEBRA" }, { choice: "LION" }), {}, { ZEBRA: 1, LION: 1 }],
    ["same choice twice", survey({ choice: "ZEBRA" }, { choice: "ZEBRA" }), {}, { ZEBRA: 2 }],
    ["nothing identified, with nothing_here_choice", survey(), { nothing_here_choice: "NTHNGHR" }, { NTHNGHR: 1 }],
    ["nothing identified, without", survey(), {}, {}],
    ["null value, with nothing_here_choice", answered("T1", null), { nothing_here_choice: "NTHNGHR" }, { NTHNGHR: 1 }],
    ["choice present: nothing_here not added", survey({ choice: "ZEBRA" }), { nothing_here_choice: "NTHNGHR" }, { ZEBRA: 1 }],
  ])("%s", (_name, c, extra, data) => {
    expect(run({ type: "survey", task_key: "T1", ...extra }, c)).toEqual({ kind: "data", data });
  });

  it("task missing follows if_missing", () => {
    expect(() => run({ type: "survey", task_key: "T1" }, classification())).toThrow(ExtractorError);
    expect(run({ type: "survey", task_key: "T1", if_missing: "reject" }, classification()).kind).toBe("skip");
  });
});

describe("shape extractor", () => {
  const marks = (...m: unknown[]) => answered("T0", m);
  it.each([
    ["points", "point", marks({ x: 1, y: 2, toolIndex: 0 }, { x: 3, y: 4, toolIndex: 0 }), {}, { T0_tool0_x: [1, 3], T0_tool0_y: [2, 4] }],
    [
      "points of two tools",
      "point",
      marks({ x: 1, y: 2, toolIndex: 1 }, { x: 3, y: 4, toolIndex: 0 }),
      {},
      { T0_tool0_x: [3], T0_tool0_y: [4], T0_tool1_x: [1], T0_tool1_y: [2] },
    ],
    [
      "tool_index filter",
      "point",
      marks({ x: 1, y: 2, toolIndex: 1 }, { x: 3, y: 4, toolIndex: 0 }),
      { tool_index: 1 },
      { T0_tool1_x: [1], T0_tool1_y: [2] },
    ],
    [
      "rectangles (angle defaults to 0)",
      "rectangle",
      marks({ x: 1, y: 2, width: 3, height: 4, toolIndex: 0 }, { x: 5, y: 6, width: 7, height: 8, angle: 9, toolIndex: 0 }),
      {},
      { T0_tool0_x: [1, 5], T0_tool0_y: [2, 6], T0_tool0_width: [3, 7], T0_tool0_height: [4, 8], T0_tool0_angle: [0, 9] },
    ],
    ["circles", "circle", marks({ x: 1, y: 2, r: 3, toolIndex: 2 }), {}, { T0_tool2_x: [1], T0_tool2_y: [2], T0_tool2_r: [3] }],
    [
      "ellipses",
      "ellipse",
      marks({ x: 1, y: 2, rx: 3, ry: 4, angle: 5, toolIndex: 0 }),
      {},
      { T0_tool0_x: [1], T0_tool0_y: [2], T0_tool0_rx: [3], T0_tool0_ry: [4], T0_tool0_angle: [5] },
    ],
    [
      "lines",
      "line",
      marks({ x1: 1, y1: 2, x2: 3, y2: 4, toolIndex: 0 }),
      {},
      { T0_tool0_x1: [1], T0_tool0_y1: [2], T0_tool0_x2: [3], T0_tool0_y2: [4] },
    ],
    [
      "polygons",
      "polygon",
      marks({
        points: [
          { x: 0, y: 0 },
          { x: 1, y: 0 },
          { x: 1, y: 1 },
        ],
        toolIndex: 0,
      }),
      {},
      {
        T0_tool0_points: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
          ],
        ],
      },
    ],
    [
      "frames",
      "point",
      marks({ x: 1, y: 2, toolIndex: 0, frame: 1 }, { x: 3, y: 4, toolIndex: 0 }),
      {},
      { T0_tool0_x: [1, 3], T0_tool0_y: [2, 4], T0_tool0_frame: [1, 0] },
    ],
    [
      "mark missing a field is left out",
      "point",
      marks({ x: 1, toolIndex: 0 }, { x: 3, y: 4, toolIndex: 0 }),
      {},
      { T0_tool0_x: [3], T0_tool0_y: [4] },
    ],
    ["`tool` instead of toolIndex", "point", marks({ x: 1, y: 2, tool: 3 }), {}, { T0_tool3_x: [1], T0_tool3_y: [2] }],
    ["no marks", "point", marks(), {}, {}],
  ])("%s", (_name, shape, c, extra, data) => {
    expect(run({ type: "shape", task_key: "T0", shape, ...extra }, c)).toEqual({ kind: "data", data });
  });

  it("task missing follows if_missing", () => {
    expect(() => run({ type: "shape", task_key: "T0", shape: "point" }, classification())).toThrow(ExtractorError);
    expect(run({ type: "shape", task_key: "T0", shape: "point", if_missing: "ignore" }, classification())).toEqual({
      kind: "data",
      data: {},
    });
  });
});

describe("external extractor", () => {
  it("builds the request with the classification data as body", () => {
    const c = answered("T0", 1);
    const config = parse({ type: "external", url: "https://extractor.example.org/run" });
    expect(externalRequest(config as { url: string }, c)).toEqual({ url: "https://extractor.example.org/run", body: c });
  });
  it("is never run in-process", () => {
    expect(() => extractors.external.extract(parse({ type: "external", url: "https://x.example.org" }) as never, classification())).toThrow(
      ExtractorError,
    );
  });
});

describe("extractor configs", () => {
  it.each([
    [{ type: "question" }, "task_key"],
    [{ type: "nope", task_key: "T0" }, "type: unknown extractor type 'nope'"],
    [{ type: "question", task_key: "T0", if_missing: "explode" }, "if_missing: must be one of error, ignore, reject"],
    [{ type: "question", task_key: "T0", minimum_workflow_version: "v2" }, "minimum_workflow_version"],
    [{ type: "question", task_key: "T0", extra: 1 }, "unknown key(s) 'extra'"],
    [{ type: "external", url: "http://x.example.org" }, "url: must be an https: URL"],
    [{ type: "pluck_field", field_map: { a: "subject.name" } }, "field_map.a: invalid JSONPath"],
    [{ type: "pluck_field", field_map: {} }, "field_map: needs at least one field"],
    [{ type: "shape", task_key: "T0", shape: "star" }, "shape: must be one of point"],
  ])("%j is refused (%s)", async (config, message) => {
    const { formatIssues } = await import("../validation");
    const r = ZExtractorConfig.safeParse(config);
    expect(r.success).toBe(false);
    expect(formatIssues(r.error!.issues)).toContain(message);
  });
});
