import { describe, expect, it } from "vitest";
import { evaluateFeedback, FEEDBACK_STRATEGIES, subjectFeedbackRules } from "./feedback";

describe("subjectFeedbackRules", () => {
  it("groups #feedback_N_ fields by N and drops groups without an id", () => {
    expect(
      subjectFeedbackRules({
        "#feedback_1_id": "r1",
        "#feedback_1_answer": "0",
        "#feedback_2_answer": "1",
        "#feedback_3_id": "r2",
        "#feedback_3_choiceIds": "FOX, DEER",
        name: "x",
      }),
    ).toEqual([
      { id: "r1", answer: "0" },
      { id: "r2", choiceIds: "FOX, DEER" },
    ]);
  });
});

describe("strategies", () => {
  it.each([
    ["singleAnswerQuestion", 0, { id: "r", answer: "0" }, true],
    ["singleAnswerQuestion", 1, { id: "r", answer: "0" }, false],
    ["singleAnswerQuestion", null, { id: "r", answer: "0" }, false],
    ["singleAnswerQuestion", 2, { id: "r", answer: " 2 " }, true],
    ["singleAnswerQuestion", 0, { id: "r" }, null],
    ["surveySimple", [{ choice: "FOX", answers: {} }], { id: "r", choiceIds: "FOX" }, true],
    ["surveySimple", [{ choice: "FOX" }, { choice: "DEER" }], { id: "r", choiceIds: "DEER,FOX" }, true],
    ["surveySimple", [{ choice: "FOX" }], { id: "r", choiceIds: "DEER,FOX" }, false],
    ["surveySimple", [{ choice: "FOX" }, { choice: "OWL" }], { id: "r", choiceIds: "FOX" }, false],
    ["surveySimple", [], { id: "r", choiceIds: "FOX" }, false],
    ["surveySimple", [], { id: "r" }, null],
  ] as const)("%s(%j, %j) → %s", (name, value, rule, expected) => expect(FEEDBACK_STRATEGIES[name](value, rule as never)).toBe(expected));
});

describe("evaluateFeedback", () => {
  const tasks = {
    T0: {
      type: "single",
      feedback: {
        enabled: true,
        rules: [
          {
            id: "q",
            strategy: "singleAnswerQuestion",
            successEnabled: true,
            defaultSuccessMessage: "Well done",
            failureEnabled: true,
            defaultFailureMessage: "It was a cat",
          },
        ],
      },
    },
    T1: {
      type: "survey",
      feedback: {
        enabled: true,
        rules: [{ id: "s", strategy: "surveySimple", successEnabled: false, failureEnabled: true, defaultFailureMessage: "Look again" }],
      },
    },
    T2: { type: "single", feedback: { enabled: false, rules: [{ id: "q", strategy: "singleAnswerQuestion" }] } },
  };
  const metadata = { "#feedback_1_id": "q", "#feedback_1_answer": "1", "#feedback_2_id": "s", "#feedback_2_choiceIds": "FOX" };

  it.each([
    [
      "right answer: the default success message",
      [{ task: "T0", value: 1 }],
      [{ taskKey: "T0", ruleId: "q", success: true, message: "Well done" }],
    ],
    [
      "wrong answer: the default failure message",
      [{ task: "T0", value: 0 }],
      [{ taskKey: "T0", ruleId: "q", success: false, message: "It was a cat" }],
    ],
    ["survey success with success disabled: nothing", [{ task: "T1", value: [{ choice: "FOX" }] }], []],
    [
      "survey failure",
      [{ task: "T1", value: [{ choice: "OWL" }] }],
      [{ taskKey: "T1", ruleId: "s", success: false, message: "Look again" }],
    ],
    ["feedback disabled on the task: nothing", [{ task: "T2", value: 1 }], []],
    ["a task without feedback: nothing", [{ task: "T9", value: 1 }], []],
  ])("%s", (_, annotations, expected) => expect(evaluateFeedback(tasks, annotations, metadata)).toEqual(expected));

  it("the subject's own message wins over the task's default", () => {
    expect(
      evaluateFeedback(tasks, [{ task: "T0", value: 0 }], { ...metadata, "#feedback_1_failureMessage": "That one is a lynx" })[0].message,
    ).toBe("That one is a lynx");
  });

  it("a subject without feedback metadata gets none", () => expect(evaluateFeedback(tasks, [{ task: "T0", value: 1 }], {})).toEqual([]));
});
