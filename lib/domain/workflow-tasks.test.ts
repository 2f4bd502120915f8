import { describe, expect, it } from "vitest";
import { MAX_TASKS_CHARS, ZTasks } from "./workflow-tasks";

// A workflow's tasks are bounded as a whole: every classify and lab page carries them.

const question = (answers: number, label: string) => ({
  T0: { type: "single", question: "Q", answers: Array.from({ length: answers }, () => ({ label })) },
});

describe("a workflow's tasks", () => {
  it.each([
    ["well under the limit", question(3, "Yes"), true],
    ["just under the limit", question(Math.floor(MAX_TASKS_CHARS / 10_020) - 1, "a".repeat(10_000)), true],
    ["over the limit", question(Math.ceil(MAX_TASKS_CHARS / 10_000) + 1, "a".repeat(10_000)), false],
    ["over the limit once JSON escapes the quotes", question(Math.ceil(MAX_TASKS_CHARS / 20_000) + 1, '"'.repeat(10_000)), false],
  ])("%s", (_name, tasks, ok) => {
    const parsed = ZTasks.safeParse(tasks);
    expect(parsed.success).toBe(ok);
    if (!ok) expect(parsed.error?.issues[0].message).toBe(`tasks may hold at most ${MAX_TASKS_CHARS} characters of JSON`);
  });
});
