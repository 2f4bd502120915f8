import { describe, expect, it } from "vitest";
import { ZTasks } from "@/lib/domain/workflow-tasks";
import {
  addSurveyEntry,
  choiceImageUrls,
  draftsFromTasks,
  freshKey,
  removeSurveyEntry,
  removeTask,
  setChoiceImages,
  setConfusion,
  surveyEntries,
  surveyId,
  TASK_TYPES,
  taskDepths,
  taskLinks,
  tasksFromDrafts,
  taskTemplate,
  unreachableTasks,
  type TaskDraft,
} from "./task-editing";

const drafts = (tasks: Record<string, object>, first = "T0"): TaskDraft[] => draftsFromTasks(tasks as never, first);

describe("task templates", () => {
  it.each(TASK_TYPES.map(([t]) => [t]))("a %s task, once filled in, is valid for the API", (type) => {
    const task = taskTemplate(type);
    // What the editor asks for, filled in.
    if (task.answers) task.answers = task.answers.map((_: unknown, i: number) => ({ label: `A${i}` }));
    if (type === "survey") task.choices = { FOX: { label: "Fox" } };
    if (type === "drawing") task.tools[0].label = "Fox";
    const tasks = type === "combo" ? { T0: { ...task, tasks: ["T1"] }, T1: taskTemplate("text") } : { T0: task };
    expect(ZTasks.safeParse(tasks).success, JSON.stringify(ZTasks.safeParse(tasks).error?.issues)).toBe(true);
  });
});

describe("drafts", () => {
  it.each([
    ["first task first, then the definition's order", { T1: { type: "text" }, T0: { type: "single", answers: [] } }, "T0", ["T0", "T1"]],
    ["a first task not named T0", { A: { type: "text" }, B: { type: "text" } }, "B", ["B", "A"]],
    ["a first task that does not exist is skipped", { T1: { type: "text" } }, "T9", ["T1"]],
  ] as const)("%s", (_n, tasks, first, keys) => {
    expect(draftsFromTasks(tasks as never, first).map((d) => d.key)).toEqual(keys);
  });

  it("round-trips every field, and drops empty links", () => {
    const tasks = {
      T0: {
        type: "single",
        question: "?",
        answers: [
          { label: "a", next: "T1" },
          { label: "b", next: "" },
        ],
        help: "h",
        feedback: { enabled: true },
      },
      T1: { type: "text", instruction: "i", next: "" },
    };
    expect(tasksFromDrafts(drafts(tasks))).toEqual({
      T0: { type: "single", question: "?", answers: [{ label: "a", next: "T1" }, { label: "b" }], help: "h", feedback: { enabled: true } },
      T1: { type: "text", instruction: "i" },
    });
  });

  it.each([
    [[], "T0"],
    [[{ key: "T0", task: {} }], "T1"],
    [[{ key: "T1", task: {} }], "T0"],
    [
      [
        { key: "T0", task: {} },
        { key: "T1", task: {} },
        { key: "T3", task: {} },
      ],
      "T2",
    ],
  ])("freshKey of %j is %s", (ds, key) => expect(freshKey(ds as TaskDraft[])).toBe(key));
});

describe("branching", () => {
  const wf = drafts({
    T0: { type: "single", question: "?", answers: [{ label: "Yes", next: "T1" }, { label: "No" }], unlinkedTask: "T3" },
    T1: { type: "combo", tasks: ["T2"], next: "T4" },
    T2: { type: "drawing", tools: [] },
    T3: { type: "shortcut", answers: [{ label: "Nothing" }] },
    T4: { type: "text", instruction: "" },
    T5: { type: "slider" },
  });

  it("links answers, combos, shortcuts and next", () => {
    expect(taskLinks(wf)).toEqual([
      { from: "T0", to: "T1", label: "Yes" },
      { from: "T0", to: null, label: "No" },
      { from: "T0", to: "T3", label: "shortcut" },
      { from: "T1", to: "T2", label: "shows" },
      { from: "T1", to: "T4", label: "" },
      { from: "T2", to: null, label: "" },
      { from: "T4", to: null, label: "" },
      { from: "T5", to: null, label: "" },
    ]);
  });

  it("finds tasks nothing leads to, and lays tasks out by depth", () => {
    expect(unreachableTasks(wf)).toEqual(["T5"]);
    expect(Object.fromEntries(taskDepths(wf))).toEqual({ T0: 0, T1: 1, T3: 1, T2: 2, T4: 2, T5: 3 });
  });

  it("removing a task ends the links to it and takes it out of combos", () => {
    const after = removeTask(wf, "T2");
    expect(after.map((d) => d.key)).toEqual(["T0", "T1", "T3", "T4", "T5"]);
    expect(after[1].task.tasks).toEqual([]);
    const noT1 = removeTask(wf, "T1");
    expect(noT1[0].task.answers[0].next).toBeUndefined();
    expect(tasksFromDrafts(noT1).T0.answers[0]).toEqual({ label: "Yes" });
    expect(removeTask(wf, "T3")[0].task.unlinkedTask).toBeUndefined();
  });
});

describe("surveys", () => {
  it.each([
    ["Red fox", [], "REDFOX"],
    ["Red fox", ["REDFOX"], "REDFOX2"],
    ["Red fox", ["REDFOX", "REDFOX2"], "REDFOX3"],
    ["???", [], "ITEM"],
    ["A very long name for an animal indeed", [], "AVERYLONGNAMEFORANAN"],
  ])("surveyId(%s, %j) is %s", (label, taken, id) => expect(surveyId(label, taken)).toBe(id));

  it("adds, orders and removes choices, characteristics and questions, keeping references consistent", () => {
    let t = taskTemplate("survey");
    ({ task: t } = addSurveyEntry(t, "characteristics", { label: "Colour", values: { RED: { label: "Red" } }, valuesOrder: ["RED"] }));
    ({ task: t } = addSurveyEntry(t, "choices", { label: "Fox", characteristics: { COLOUR: ["RED"] } }));
    ({ task: t } = addSurveyEntry(t, "choices", { label: "Dog" }));
    ({ task: t } = addSurveyEntry(t, "questions", { label: "How many?", answers: { ONE: { label: "1" } }, answersOrder: ["ONE"] }));
    expect(surveyEntries(t, "choices").map(([k]) => k)).toEqual(["FOX", "DOG"]);
    t = setConfusion(t, "FOX", "DOG", "A fox has a bushy tail");
    expect(t.choices.FOX.confusionsOrder).toEqual(["DOG"]);
    t = setChoiceImages(t, "FOX", ["https://example.org/img/fox-1.jpg", "https://example.org/img/fox-2.jpg?v=2"]);
    expect(t.choices.FOX.images).toEqual(["fox-1.jpg", "fox-2.jpg"]);
    expect(choiceImageUrls(t, "FOX")).toEqual(["https://example.org/img/fox-1.jpg", "https://example.org/img/fox-2.jpg?v=2"]);
    expect(ZTasks.safeParse({ T0: t }).success).toBe(true);

    const noDog = removeSurveyEntry(t, "choices", "DOG");
    expect(noDog.choicesOrder).toEqual(["FOX"]);
    expect(noDog.choices.FOX.confusions).toEqual({});
    expect(noDog.choices.FOX.confusionsOrder).toEqual([]);
    const noColour = removeSurveyEntry(t, "characteristics", "COLOUR");
    expect(noColour.choices.FOX.characteristics).toEqual({});
    expect(noColour.characteristicsOrder).toEqual([]);
    const cleared = setConfusion(t, "FOX", "DOG", " ");
    expect(cleared.choices.FOX.confusions).toEqual({});
    // Images no choice uses leave the map.
    expect(Object.keys(setChoiceImages(t, "FOX", []).images)).toEqual([]);
  });
});
