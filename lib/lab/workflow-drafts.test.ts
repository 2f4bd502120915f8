import { describe, expect, it } from "vitest";
import { taskGraphErrors, ZTasks } from "@/lib/domain/workflow-tasks";
import { draftsFrom, emptyDraft, freshKey, toTasks } from "./workflow-drafts";

describe("the lab's workflow drafts", () => {
  const tasks = {
    T0: { type: "single", question: "Is there a cat?", answers: [{ label: "Yes", next: "intro" }, { label: "No" }] },
    intro: { type: "text", instruction: "Name it", next: "T1" },
    T1: { type: "multiple", question: "Colours?", answers: [{ label: "Black" }, { label: "White" }] },
  };

  it.each([
    { name: "questions, text and branching", tasks, first: "T0" },
    { name: "a text task first", tasks: { A: { type: "text", instruction: "Describe" } }, first: "A" },
    { name: "a multiple question with next", tasks: { M: { type: "multiple", question: "?", answers: [{ label: "a" }], next: "N" }, N: { type: "text", instruction: "n" } }, first: "M" },
  ])("round-trips $name, keeping keys and the first task", ({ tasks: t, first }) => {
    const drafts = draftsFrom(t as Record<string, Record<string, unknown>>, first)!;
    expect(drafts[0].key).toBe(first);
    expect(toTasks(drafts)).toEqual(t);
    const parsed = ZTasks.safeParse(toTasks(drafts));
    expect(parsed.success).toBe(true);
    expect(taskGraphErrors(parsed.data!, drafts[0].key)).toEqual([]);
  });

  it.each([
    { type: "drawing", tools: [{ type: "point" }] },
    { type: "survey", choices: {} },
    { type: "combo", tasks: [] },
  ])("leaves $type workflows to the API", (other) => {
    expect(draftsFrom({ T0: { type: "single", question: "?", answers: [{ label: "a" }] }, T1: other }, "T0")).toBeNull();
  });

  it("gives new tasks the first free key", () => {
    expect(freshKey([emptyDraft("T0"), emptyDraft("T2")])).toBe("T1");
    expect(freshKey([emptyDraft("intro")])).toBe("T0");
  });

  it("drops a single question's task-level next and a multiple question's answer-level next", () => {
    const [d] = draftsFrom({ Q: { type: "single", question: "?", answers: [{ label: "a", next: "" }], next: "X" } }, "Q")!;
    expect(toTasks([{ ...d, next: "X" }])).toEqual({ Q: { type: "single", question: "?", answers: [{ label: "a" }] } });
    expect(toTasks([{ ...d, type: "multiple", answers: [{ label: "a", next: "X" }], next: "" }])).toEqual({ Q: { type: "multiple", question: "?", answers: [{ label: "a" }] } });
  });
});
