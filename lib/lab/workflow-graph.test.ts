import { describe, expect, it } from "vitest";
import type { TaskDraft } from "./task-editing";
import { connectTasks, END_NODE, nodeHeight, outletsOf, workflowGraph } from "./workflow-graph";

const single = (next?: (string | undefined)[]) => ({
  type: "single",
  question: "?",
  answers: (next ?? [undefined, undefined]).map((n, k) => ({ label: `A${k}`, ...(n ? { next: n } : {}) })),
});
const drafts = (...tasks: [string, Record<string, unknown>][]): TaskDraft[] =>
  tasks.map(([key, task]) => ({ key, task: task as TaskDraft["task"] }));

describe("outletsOf", () => {
  it.each([
    [
      "a single question: one per answer",
      single(["T1", undefined]),
      [
        ["answer-0", "A0", "T1"],
        ["answer-1", "A1", ""],
      ],
    ],
    ["a text task: its own next", { type: "text", next: "T2" }, [["next", "then", "T2"]]],
    ["a multiple question: its own next", { type: "multiple", answers: [{ label: "x" }] }, [["next", "then", ""]]],
    ["a shortcut: none", { type: "shortcut", answers: [{ label: "Nothing here" }] }, []],
  ])("%s", (_what, task, outlets) => {
    expect(outletsOf({ key: "T0", task }).map((o) => [o.id, o.label, o.to])).toEqual(outlets);
  });
});

describe("workflowGraph", () => {
  it("lays tasks out in columns by steps from the first, stacked by height, with the end after the last column", () => {
    const g = workflowGraph(drafts(["T0", single(["T1", "T2"])], ["T1", { type: "text" }], ["T2", { type: "text", next: "T1" }]));
    expect(g.nodes.map((n) => [n.id, n.x, n.y, n.height])).toEqual([
      ["T0", 0, 0, nodeHeight(2)],
      ["T1", 290, 0, nodeHeight(1)],
      ["T2", 290, nodeHeight(1) + 30, nodeHeight(1)],
      [END_NODE, 580, expect.any(Number), nodeHeight(0)],
    ]);
    expect(g.edges.map((e) => [e.source, e.sourceHandle, e.target])).toEqual([
      ["T0", "answer-0", "T1"],
      ["T0", "answer-1", "T2"],
      ["T1", "next", END_NODE],
      ["T2", "next", "T1"],
    ]);
    expect(g.width).toBe(580 + 200);
    expect(g.height).toBe(2 * nodeHeight(1) + 30);
  });

  it("flags tasks nothing leads to, and draws a combo's members as fixed links", () => {
    const g = workflowGraph(drafts(["T0", { type: "combo", tasks: ["T1"] }], ["T1", { type: "text" }], ["T2", { type: "text" }]));
    expect(g.nodes.filter((n) => n.unreachable).map((n) => n.id)).toEqual(["T2"]);
    expect(g.edges.filter((e) => e.fixed).map((e) => [e.source, e.target, e.label])).toEqual([["T0", "T1", "shows"]]);
  });

  it("is the end alone for no tasks", () => {
    expect(workflowGraph([]).nodes.map((n) => n.id)).toEqual([END_NODE]);
  });
});

describe("connectTasks", () => {
  const base = drafts(["T0", single()], ["T1", { type: "text" }], ["T2", { type: "text" }]);
  it.each([
    ["an answer to a task", "T0", "answer-1", "T2", (d: TaskDraft[]) => d[0].task.answers[1].next, "T2"],
    ["an answer to the end", "T0", "answer-0", END_NODE, (d: TaskDraft[]) => d[0].task.answers[0].next, ""],
    ["a task's next to a task", "T1", "next", "T2", (d: TaskDraft[]) => d[1].task.next, "T2"],
  ])("links %s", (_what, from, outlet, to, read, expected) => {
    const out = connectTasks(base, from, outlet, to);
    expect(out && read(out)).toBe(expected);
    expect(base[0].task.answers[1].next).toBeUndefined(); // the drafts given are not changed
  });

  it.each([
    ["a task to itself", "T1", "next", "T1"],
    ["to a task that does not exist", "T1", "next", "T9"],
    ["from a task that does not exist", "T9", "next", "T1"],
    ["from an outlet the task does not have", "T0", "next", "T1"],
    ["from an answer the task does not have", "T0", "answer-5", "T1"],
  ])("refuses %s", (_what, from, outlet, to) => {
    expect(connectTasks(base, from, outlet, to)).toBeNull();
  });
});
