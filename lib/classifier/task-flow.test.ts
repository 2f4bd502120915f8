import { describe, expect, it } from "vitest";
import {
  annotationFor,
  classificationBody,
  surveyChoiceDetails,
  emptyValue,
  isAnswered,
  nextTask,
  stepTasks,
  surveyCharacteristics,
  surveyChoices,
  surveyItemComplete,
  surveyQuestions,
  unsupportedTasks,
  type Mark,
  type SurveyItem,
  type SurveyTask,
  type Tasks,
} from "./task-flow";

const tasks: Tasks = {
  T0: { type: "single", question: "Is there an animal?", answers: [{ label: "Yes", next: "T1" }, { label: "No" }] },
  T1: { type: "multiple", question: "Which colours?", answers: [{ label: "Red" }, { label: "Green" }, { label: "Blue" }], next: "T2" },
  T2: { type: "text", instruction: "Describe it", next: "T3", required: true },
  T3: {
    type: "drawing",
    instruction: "Mark it",
    tools: [
      { type: "point", label: "Eye" },
      { type: "rectangle", label: "Body" },
    ],
    next: "T4",
  },
  T4: { type: "combo", tasks: ["T5", "T6"] },
  T5: { type: "single", question: "Awake?", answers: [{ label: "Yes" }, { label: "No" }] },
  T6: { type: "text", instruction: "Notes" },
  S: { type: "survey", choices: {} },
};

describe("nextTask", () => {
  it.each([
    { from: "T0", value: 0, next: "T1", why: "the chosen answer's next" },
    { from: "T0", value: 1, next: null, why: "an answer without next ends the workflow" },
    { from: "T0", value: null, next: null, why: "nothing chosen yet" },
    { from: "T1", value: [0, 2], next: "T2", why: "a multiple question's own next" },
    { from: "T2", value: "big", next: "T3", why: "a text task's next" },
    { from: "T3", value: [], next: "T4", why: "a drawing task's next" },
    { from: "T4", value: null, next: null, why: "a combo without next ends" },
    { from: "nope", value: null, next: null, why: "an unknown task" },
  ])("$why", ({ from, value, next }) => {
    expect(nextTask(tasks, from, value as never)).toBe(next);
  });

  it("ignores a next that names no task", () => {
    expect(nextTask({ A: { type: "text", next: "missing" } }, "A", "")).toBeNull();
  });
});

describe("isAnswered", () => {
  it.each([
    { key: "T0", value: null, ok: false },
    { key: "T0", value: 1, ok: true },
    { key: "T1", value: [], ok: true },
    { key: "T2", value: "  ", ok: false },
    { key: "T2", value: "a fox", ok: true },
    { key: "T6", value: "", ok: true },
    { key: "T3", value: [], ok: true },
  ])("$key with $value → $ok", ({ key, value, ok }) => {
    expect(isAnswered(tasks[key], value as never)).toBe(ok);
  });

  it("a required multiple question needs an answer", () => {
    const t = { type: "multiple" as const, question: "?", answers: [{ label: "a" }], required: true };
    expect(isAnswered(t, [])).toBe(false);
    expect(isAnswered(t, [0])).toBe(true);
  });
});

describe("emptyValue and stepTasks", () => {
  it.each([
    { key: "T0", value: null },
    { key: "T1", value: [] },
    { key: "T2", value: "" },
    { key: "T3", value: [] },
  ])("$key starts as $value", ({ key, value }) => expect(emptyValue(tasks[key])).toEqual(value));

  it("a combo step shows its members; others show themselves", () => {
    expect(stepTasks(tasks, "T4")).toEqual(["T5", "T6"]);
    expect(stepTasks(tasks, "T0")).toEqual(["T0"]);
    expect(stepTasks(tasks, "nope")).toEqual([]);
  });
});

describe("annotations", () => {
  const marks: Mark[] = [
    { tool: 0, toolType: "point", x: 10.5, y: 20, frame: 0, details: [] },
    { tool: 1, toolType: "rectangle", x: 1, y: 2, width: 30, height: 40, frame: 1, details: [] },
  ];
  it.each([
    { key: "T0", value: 1, out: { task: "T0", value: 1 } },
    { key: "T1", value: [2, 0], out: { task: "T1", value: [0, 2] } },
    { key: "T2", value: "a fox", out: { task: "T2", value: "a fox" } },
    {
      key: "T3",
      value: marks,
      out: {
        task: "T3",
        value: [
          { tool: 0, x: 10.5, y: 20, frame: 0, details: [] },
          { tool: 1, x: 1, y: 2, width: 30, height: 40, frame: 1, details: [] },
        ],
      },
    },
  ])("$key", ({ key, value, out }) => expect(annotationFor(tasks[key], key, value as never)).toEqual(out));

  it("builds the classification the API requires", () => {
    const body = classificationBody({
      projectId: "3",
      workflowId: "7",
      workflowVersion: "2.1",
      subjectId: "99",
      answered: [
        { key: "T0", value: 0 },
        { key: "T1", value: [1] },
        { key: "gone", value: 1 },
      ],
      tasks,
      startedAt: new Date("2026-01-01T10:00:00Z"),
      finishedAt: new Date("2026-01-01T10:00:07Z"),
      userAgent: "test",
      userLanguage: "en",
      utcOffset: -3600,
      subjectDimensions: [{ naturalWidth: 800, naturalHeight: 600, clientWidth: 400, clientHeight: 300 }],
      selectionState: { retired: false, already_seen: false },
    });
    expect(body).toEqual({
      classifications: {
        completed: true,
        annotations: [
          { task: "T0", value: 0 },
          { task: "T1", value: [1] },
        ],
        metadata: {
          started_at: "2026-01-01T10:00:00.000Z",
          finished_at: "2026-01-01T10:00:07.000Z",
          user_agent: "test",
          user_language: "en",
          utc_offset: "-3600",
          workflow_version: "2.1",
          subject_dimensions: [{ naturalWidth: 800, naturalHeight: 600, clientWidth: 400, clientHeight: 300 }],
          source: "quorum-classifier",
          subject_selection_state: { retired: false, already_seen: false },
        },
        links: { project: "3", workflow: "7", subjects: ["99"] },
      },
    });
  });

  it.each([
    [true, true],
    [false, undefined],
    [undefined, undefined],
  ])("gold standard mode %s sends gold_standard %s", (mode, sent) => {
    const base = {
      projectId: "3",
      workflowId: "7",
      workflowVersion: "2.1",
      subjectId: "99",
      answered: [],
      tasks,
      startedAt: new Date(),
      finishedAt: new Date(),
      userAgent: "t",
      userLanguage: "en",
      utcOffset: 0,
      subjectDimensions: [],
    };
    expect((classificationBody({ ...base, goldStandard: mode }).classifications as { gold_standard?: boolean }).gold_standard).toBe(sent);
  });
});

describe("unsupportedTasks", () => {
  it("lists reachable tasks this classifier cannot show", () => {
    expect(unsupportedTasks(tasks, "T0")).toEqual([]);
    expect(unsupportedTasks({ ...tasks, T6: { type: "dropdown" } }, "T0")).toEqual(["T6"]);
    expect(unsupportedTasks({ A: { type: "drawing", tools: [{ type: "bezier" }] } }, "A")).toEqual(["A"]);
    expect(
      unsupportedTasks({ A: { type: "single", question: "?", answers: [{ label: "x", next: "B" }] }, B: { type: "dropdown" } }, "A"),
    ).toEqual(["B"]);
    expect(unsupportedTasks({ A: { type: "single", question: "?", answers: [], unlinkedTask: "B" }, B: { type: "crop" } }, "A")).toEqual([
      "B",
    ]);
  });
});

describe("survey tasks", () => {
  const survey: SurveyTask = {
    type: "survey",
    choices: {
      ZEBRA: { label: "Zebra", characteristics: { pattern: ["stripes"], colour: ["black", "white"] } },
      LION: { label: "Lion", characteristics: { pattern: ["solid"], colour: ["tan"] } },
      NOTHING: { label: "Nothing here", noQuestions: true },
      TIGER: { label: "Tiger", characteristics: { pattern: ["stripes"], colour: ["tan"] } },
    },
    choicesOrder: ["LION", "TIGER", "ZEBRA"],
    characteristics: {
      pattern: {
        label: "Pattern",
        values: { solid: { label: "Solid" }, stripes: { label: "Stripes" } },
        valuesOrder: ["stripes", "solid"],
      },
      colour: { label: "Colour", values: { tan: { label: "Tan" }, black: { label: "Black" }, white: { label: "White" } } },
    },
    characteristicsOrder: ["pattern", "colour"],
    questions: {
      HOWMANY: { label: "How many?", required: true, answers: { "1": { label: "1" }, "2": { label: "2" }, "3+": { label: "3 or more" } } },
      DOING: {
        label: "What are they doing?",
        multiple: true,
        answers: { EAT: { label: "Eating" }, REST: { label: "Resting" } },
        answersOrder: ["REST", "EAT"],
      },
    },
    questionsOrder: ["HOWMANY", "DOING"],
  };

  it.each([
    { name: "everything, in order (unordered ones last)", filters: {}, search: "", ids: ["LION", "TIGER", "ZEBRA", "NOTHING"] },
    { name: "one characteristic", filters: { pattern: "stripes" }, search: "", ids: ["TIGER", "ZEBRA"] },
    { name: "two characteristics", filters: { pattern: "stripes", colour: "tan" }, search: "", ids: ["TIGER"] },
    { name: "an empty filter value means any", filters: { pattern: "" }, search: "", ids: ["LION", "TIGER", "ZEBRA", "NOTHING"] },
    { name: "search by label, any case", filters: {}, search: "  ti", ids: ["TIGER"] },
    { name: "nothing matches", filters: { colour: "white", pattern: "solid" }, search: "", ids: [] },
  ])("choices: $name", ({ filters, search, ids }) => {
    expect(surveyChoices(survey, filters as Record<string, string>, search)).toEqual(ids);
  });

  it("lists characteristics and questions in the survey's order", () => {
    expect(surveyCharacteristics(survey).map((c) => [c.id, c.values.map((v) => v.id)])).toEqual([
      ["pattern", ["stripes", "solid"]],
      ["colour", ["tan", "black", "white"]],
    ]);
    expect(surveyQuestions(survey, "ZEBRA").map((q) => [q.id, q.multiple, q.required, q.answers.map((a) => a.id)])).toEqual([
      ["HOWMANY", false, true, ["1", "2", "3+"]],
      ["DOING", true, false, ["REST", "EAT"]],
    ]);
    expect(surveyQuestions(survey, "NOTHING")).toEqual([]);
  });

  it.each([
    { item: { choice: "ZEBRA", answers: {}, filters: {} }, complete: false },
    { item: { choice: "ZEBRA", answers: { HOWMANY: "2" }, filters: {} }, complete: true },
    { item: { choice: "ZEBRA", answers: { HOWMANY: "" }, filters: {} }, complete: false },
    { item: { choice: "NOTHING", answers: {}, filters: {} }, complete: true },
  ])("identification $item.choice $item.answers complete: $complete", ({ item, complete }) => {
    expect(surveyItemComplete(survey, item as SurveyItem)).toBe(complete);
  });

  it("its annotation is the identifications as made, and it starts empty", () => {
    const items = [{ choice: "ZEBRA", answers: { HOWMANY: "2", DOING: ["EAT"] }, filters: { pattern: "stripes" } }];
    expect(emptyValue(survey)).toEqual([]);
    expect(isAnswered(survey, [])).toBe(true);
    expect(annotationFor(survey, "T9", items)).toEqual({ task: "T9", value: items });
  });
});

describe("survey choice details", () => {
  const survey = {
    type: "survey" as const,
    choices: {
      FOX: {
        label: "Fox",
        description: "Red coat",
        images: ["fox.jpg", "missing.jpg", "https://cdn.example/fox2.jpg"],
        confusions: { DOG: "Bushy tail", CAT: "", GONE: "x" },
        confusionsOrder: ["DOG", "CAT", "GONE"],
      },
      DOG: { label: "Dog" },
      CAT: { label: "Cat" },
    },
    images: { "fox.jpg": "https://example.org/fox.jpg" },
  };
  it.each([
    [
      "FOX",
      {
        description: "Red coat",
        images: ["https://example.org/fox.jpg", "https://cdn.example/fox2.jpg"],
        confusions: [{ id: "DOG", label: "Dog", text: "Bushy tail" }],
      },
    ],
    ["DOG", { description: "", images: [], confusions: [] }],
    ["NONE", { description: "", images: [], confusions: [] }],
  ])("%s", (id, want) => expect(surveyChoiceDetails(survey, id)).toEqual(want));
});
