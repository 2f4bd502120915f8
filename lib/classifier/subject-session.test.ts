import { describe, expect, it } from "vitest";
import type { Tasks } from "./task-flow";
import {
  answeredTasks,
  shortcutChoice,
  startSubject,
  stepOf,
  type SubjectAction,
  type SubjectSession,
  subjectReducer,
} from "./subject-session";

const tasks: Tasks = {
  T0: { type: "single", question: "Animal?", answers: [{ label: "Yes", next: "T1" }, { label: "No" }] },
  T1: { type: "multiple", question: "Colours?", answers: [{ label: "Red" }, { label: "Green" }, { label: "Blue" }], next: "T2" },
  T2: { type: "text", instruction: "Describe it", required: true },
  C: { type: "combo", tasks: ["C1", "C2"] },
  C1: { type: "single", question: "Awake?", answers: [{ label: "Yes" }, { label: "No" }], unlinkedTask: "S" },
  C2: { type: "text", instruction: "Notes" },
  S: { type: "shortcut", answers: [{ label: "Nothing here" }] },
  constructor: { type: "single", question: "Odd key?", answers: [{ label: "A" }] },
} as Tasks;

const run = (actions: SubjectAction[], from = startSubject(tasks, "T0")) => actions.reduce(subjectReducer, from);

describe("subjectReducer", () => {
  const cases: { name: string; actions: SubjectAction[]; expect: Partial<SubjectSession> }[] = [
    { name: "starts at the first task, nothing answered", actions: [], expect: { step: "T0", history: [], values: {}, tool: 0 } },
    { name: "an answer is kept by task", actions: [{ type: "answer", key: "T0", value: 0 }], expect: { values: { T0: 0 } } },
    {
      name: "Next goes on and remembers the step; the tool goes back to the first",
      actions: [
        { type: "tool", tool: 2 },
        { type: "next", to: "T1" },
      ],
      expect: { step: "T1", history: ["T0"], tool: 0 },
    },
    {
      name: "Back returns to the last step, answers kept",
      actions: [{ type: "answer", key: "T0", value: 0 }, { type: "next", to: "T1" }, { type: "tool", tool: 1 }, { type: "back" }],
      expect: { step: "T0", history: [], tool: 0, values: { T0: 0 } },
    },
    { name: "Back on the first step changes nothing", actions: [{ type: "back" }], expect: { step: "T0", history: [] } },
    {
      name: "a single question's shortcut chooses that answer",
      actions: [{ type: "choose", key: "T0", answer: 1, multiple: false }],
      expect: { values: { T0: 1 } },
    },
    {
      name: "a multiple question's shortcut toggles the answer",
      actions: [
        { type: "choose", key: "T1", answer: 2, multiple: true },
        { type: "choose", key: "T1", answer: 0, multiple: true },
        { type: "choose", key: "T1", answer: 2, multiple: true },
      ],
      expect: { values: { T1: [0] } },
    },
    {
      name: "frame and tab are kept",
      actions: [
        { type: "frame", frame: 2 },
        { type: "tab", tab: "tutorial" },
      ],
      expect: { frame: 2, tab: "tutorial" },
    },
  ];
  it.each(cases)("$name", ({ actions, expect: fields }) => {
    expect(run(actions)).toMatchObject(fields);
  });

  it("a workflow whose first task is missing has no step", () => {
    expect(startSubject(tasks, "nope").step).toBeNull();
    expect(startSubject({}, "toString").step).toBeNull();
    expect(run([{ type: "next", to: "T1" }], startSubject({}, "T0")).step).toBeNull();
  });

  it("does not change the state it is given", () => {
    const before = run([{ type: "answer", key: "T1", value: [1] }]);
    const copy = structuredClone(before);
    run([{ type: "choose", key: "T1", answer: 0, multiple: true }, { type: "next", to: "T2" }, { type: "back" }], before);
    expect(before).toEqual(copy);
  });
});

describe("stepOf", () => {
  const cases: { name: string; at: SubjectSession; keys: string[]; ready: boolean; next: string | null }[] = [
    { name: "an unanswered question may not go on", at: run([]), keys: ["T0"], ready: false, next: null },
    { name: "an answer branches", at: run([{ type: "answer", key: "T0", value: 0 }]), keys: ["T0"], ready: true, next: "T1" },
    { name: "an answer without a branch ends", at: run([{ type: "answer", key: "T0", value: 1 }]), keys: ["T0"], ready: true, next: null },
    {
      name: "a multiple question that is not required may go on unanswered",
      at: run([
        { type: "answer", key: "T0", value: 0 },
        { type: "next", to: "T1" },
      ]),
      keys: ["T1"],
      ready: true,
      next: "T2",
    },
    { name: "a combo shows its members and the shortcut", at: startSubject(tasks, "C"), keys: ["C1", "S", "C2"], ready: false, next: null },
    {
      name: "a shortcut chosen ends the classification",
      at: run([{ type: "answer", key: "S", value: [0] }], startSubject(tasks, "C")),
      keys: ["C1", "S", "C2"],
      ready: true,
      next: null,
    },
    { name: "no task: nothing to show, Done at once", at: startSubject({}, "T0"), keys: [], ready: true, next: null },
  ];
  it.each(cases)("$name", ({ at, keys, ready, next }) => {
    const step = stepOf(tasks, at);
    expect({ keys: step.keys, ready: step.ready, next: step.next }).toEqual({ keys, ready, next });
  });

  it("an unanswered task has its type's empty value, also under a key Object's prototype has", () => {
    const step = stepOf(tasks, startSubject(tasks, "constructor"));
    expect(step.valueAt("T1")).toEqual([]);
    expect(step.valueAt("constructor")).toBeNull();
  });
});

describe("answeredTasks", () => {
  it("lists every task of the steps passed and the one shown, with its value", () => {
    const s = run([
      { type: "answer", key: "T0", value: 0 },
      { type: "next", to: "T1" },
      { type: "answer", key: "T1", value: [2] },
    ]);
    expect(answeredTasks(tasks, s)).toEqual([
      { key: "T0", value: 0 },
      { key: "T1", value: [2] },
    ]);
  });
});

describe("shortcutChoice", () => {
  const cases: { name: string; keys: string[]; n: number; expect: SubjectAction | null }[] = [
    { name: "the n-th answer of a single question", keys: ["T0"], n: 2, expect: { type: "choose", key: "T0", answer: 1, multiple: false } },
    { name: "a multiple question's answer", keys: ["T1"], n: 3, expect: { type: "choose", key: "T1", answer: 2, multiple: true } },
    { name: "past the last answer: nothing", keys: ["T0"], n: 3, expect: null },
    { name: "a step without a question: nothing", keys: ["T2"], n: 1, expect: null },
    {
      name: "the first question of a combo",
      keys: ["C1", "S", "C2"],
      n: 1,
      expect: { type: "choose", key: "C1", answer: 0, multiple: false },
    },
  ];
  it.each(cases)("$name", ({ keys, n, expect: action }) => {
    expect(shortcutChoice(tasks, keys, n)).toEqual(action);
  });
});
