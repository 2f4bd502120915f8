import { describe, expect, it } from "vitest";
import { parseEngineWorkflowConfig } from "@/lib/engine/config";
import { dryRun } from "@/lib/engine/dry-run";
import { extract } from "@/lib/engine/extractors";
import { groupAnnotations } from "@/lib/engine/types";
import { classification } from "@/lib/engine/testing";
import type { Tasks } from "@/lib/tasks/types";
import { extractorFor } from "./engine-options";
import { exampleClassificationsJson, sampleAnnotations, sampleAnswer, sampleClassifications, seededRandom } from "./sample-classifications";

// Made-up classifications must be ones the engine reads: each task type's sample goes through the extractor
// the builder proposes for that type, and gives data, not "missing".

const TASKS: Tasks = {
  single: { type: "single", question: "Stripes?", answers: [{ label: "Yes" }, { label: "No" }] },
  multiple: { type: "multiple", question: "Colours?", answers: [{ label: "Red" }, { label: "Green" }, { label: "Blue" }] },
  text: { type: "text", instruction: "Transcribe" },
  drawing: {
    type: "drawing",
    instruction: "Mark",
    tools: [
      { type: "point", label: "Eye" },
      { type: "rectangle", label: "Box", details: [{ type: "single", question: "Sure?", answers: [{ label: "Yes" }] }] },
    ],
  },
  survey: {
    type: "survey",
    choices: { ZEBRA: { label: "Zebra" }, LION: { label: "Lion" }, NOTHING: { label: "Nothing", noQuestions: true } },
    choicesOrder: ["ZEBRA", "LION", "NOTHING"],
    questions: { HOWMANY: { label: "How many?", answers: { ONE: { label: "1" }, TWO: { label: "2" } }, answersOrder: ["ONE", "TWO"] } },
    questionsOrder: ["HOWMANY"],
  },
};

describe("sampleAnswer", () => {
  it.each([
    ["single", (v: unknown) => typeof v === "number" && v >= 0 && v < 2],
    ["multiple", (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((i) => Number.isInteger(i) && i >= 0 && i < 3)],
    ["text", (v: unknown) => typeof v === "string" && v.trim() !== ""],
    [
      "drawing",
      (v: unknown) =>
        Array.isArray(v) &&
        v.length > 0 &&
        v.every((m) => (m.tool === 0 ? typeof m.x === "number" : typeof m.width === "number" && m.details.length === 1)),
    ],
    [
      "survey",
      (v: unknown) =>
        Array.isArray(v) &&
        v.length === 1 &&
        ["ZEBRA", "LION", "NOTHING"].includes(v[0].choice) &&
        (v[0].choice === "NOTHING" ? Object.keys(v[0].answers).length === 0 : ["ONE", "TWO"].includes(v[0].answers.HOWMANY)),
    ],
  ])("a %s task gets a valid answer, whatever the draw", (key, valid) => {
    const rand = seededRandom(7);
    for (let i = 0; i < 50; i++) expect(valid(sampleAnswer(TASKS[key], rand)), JSON.stringify(sampleAnswer(TASKS[key], rand))).toBe(true);
    // the extremes of the generator: 0 and just under 1
    expect(valid(sampleAnswer(TASKS[key], () => 0))).toBe(true);
    expect(valid(sampleAnswer(TASKS[key], () => 0.999999))).toBe(true);
  });

  it.each(["single", "multiple", "text", "drawing", "survey"])("the engine's extractor for a %s task reads the sample", (key) => {
    const config = { ...extractorFor({ key, type: TASKS[key].type }) } as Parameters<typeof extract>[0];
    const c = classification({ annotations: groupAnnotations([{ task: key, value: sampleAnswer(TASKS[key], seededRandom(3)) }]) });
    const out = extract(config, c);
    expect(out.kind).toBe("data");
    if (key === "text") expect(out).toMatchObject({ data: { blank: false } });
  });

  it.each([
    ["a shortcut (choosing one ends the classification)", { type: "shortcut", answers: [{ label: "Nothing here" }] }],
    ["a highlighter (it needs the subject's text)", { type: "highlighter", highlighterLabels: [] }],
    ["a type this platform does not know", { type: "dropdown" }],
    ["a question without answers", { type: "single", question: "?", answers: [] }],
  ])("leaves %s unanswered", (_what, task) => {
    expect(sampleAnswer(task as Tasks[string], seededRandom(1))).toBeUndefined();
  });
});

describe("sampleAnnotations", () => {
  it("follows the answer's branch and a combo's members, and stops at a loop", () => {
    const tasks: Tasks = {
      T0: {
        type: "single",
        question: "?",
        answers: [
          { label: "Yes", next: "T1" },
          { label: "No", next: "T2" },
        ],
      },
      T1: { type: "combo", tasks: ["T3", "T4"], next: "T0" },
      T2: { type: "text", instruction: "Why not?" },
      T3: { type: "text" },
      T4: { type: "multiple", question: "?", answers: [{ label: "a" }] },
    };
    expect(sampleAnnotations(tasks, "T0", () => 0).map((a) => a.task)).toEqual(["T0", "T3", "T4"]);
    expect(sampleAnnotations(tasks, "T0", () => 0.9).map((a) => a.task)).toEqual(["T0", "T2"]);
    expect(sampleAnnotations(tasks, "missing", () => 0)).toEqual([]);
  });
});

describe("sampleClassifications", () => {
  const tasks: Tasks = { T0: TASKS.single };
  it("makes one classification per volunteer and subject, numbered, anonymous", () => {
    const list = sampleClassifications({
      tasks,
      firstTask: "T0",
      subjectIds: [11, 12],
      volunteers: 3,
      rand: seededRandom(5),
      firstId: 100,
    });
    expect(list.map((c) => [c.id, c.subject_id])).toEqual([
      [100, 11],
      [101, 11],
      [102, 11],
      [103, 12],
      [104, 12],
      [105, 12],
    ]);
    expect(list.every((c) => c.user_id === null && c.annotations.length === 1)).toBe(true);
  });

  it("is what the dry run takes: with full agreement, a consensus rule retires every subject", () => {
    const config = parseEngineWorkflowConfig({
      id: 1,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "consensus" } },
      rules_config: [
        { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] },
      ],
    });
    if (!config.ok) throw new Error(config.message);
    const list = sampleClassifications({
      tasks,
      firstTask: "T0",
      subjectIds: [1, 2, 3],
      volunteers: 4,
      rand: seededRandom(9),
      agreement: 1,
    });
    const run = dryRun(
      config.value,
      list.map((c, i) => ({
        ...classification({ id: c.id, subject_id: c.subject_id, user_id: null, annotations: groupAnnotations(c.annotations) }),
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      })),
    );
    expect(run.targets.filter((t) => t.retires).map((t) => t.target_id)).toEqual([1, 2, 3]);
  });
});

describe("exampleClassificationsJson", () => {
  it("is three volunteers giving the first answer to each task on the workflow's first subject", () => {
    const list = JSON.parse(exampleClassificationsJson({ T0: TASKS.single, T1: TASKS.survey }, "T0", 42));
    expect(list).toHaveLength(3);
    expect(list[0]).toEqual({ id: 1, subject_id: 42, user_id: null, annotations: [{ task: "T0", value: 0 }] });
    expect(JSON.parse(exampleClassificationsJson({ T0: TASKS.survey }, "T0", undefined))[0]).toMatchObject({
      subject_id: 1,
      annotations: [{ task: "T0", value: [{ choice: "ZEBRA", answers: { HOWMANY: "ONE" } }] }],
    });
  });
});
