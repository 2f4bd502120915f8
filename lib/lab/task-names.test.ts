import { describe, expect, it } from "vitest";
import { taskAnswers, taskChoices, taskName, taskText } from "./task-names";

describe("tasks named in the researcher's words", () => {
  it.each([
    [{ type: "single", question: "Is there an animal?" }, "Task 1: Is there an animal?"],
    [{ type: "drawing", instruction: "Draw **the** hedgehog" }, "Task 1: Draw the hedgehog"],
    [{ type: "single", question: "" }, "Task 1"],
    [
      { type: "text", instruction: "Describe everything you can see in this picture, in detail" },
      "Task 1: Describe everything you can see in this…",
    ],
    [undefined, "Task 1"],
  ])("%j is %s", (task, name) => {
    expect(taskName(0, task)).toBe(name);
  });

  it("cuts long text at 40 characters", () => {
    expect(taskText({ question: "x".repeat(60) })).toHaveLength(40);
  });

  it("lists the tasks as choices by key, in order; a question's answers by label", () => {
    expect(
      taskChoices([
        { key: "T0", task: { question: "Is there an animal?", answers: [{ label: "Yes" }, { label: "No" }] } },
        { key: "T1", task: { instruction: "Draw it" } },
      ]),
    ).toEqual([
      { value: "T0", label: "Task 1: Is there an animal?" },
      { value: "T1", label: "Task 2: Draw it" },
    ]);
    expect(taskAnswers({ answers: [{ label: "Yes" }, {}] })).toEqual(["Yes", "Answer 2"]);
    expect(taskAnswers({ instruction: "Draw" })).toEqual([]);
  });
});
