import { describe, expect, it } from "vitest";
import { ZTasks } from "@/lib/domain/workflow-tasks";
import { parseEngineWorkflowConfig } from "@/lib/engine/config";
import { extractorFor } from "@/lib/lab/engine-options";
import { TASK_TYPES, taskTemplate } from "@/lib/lab/task-editing";
import { emptyValue, isAnswered, isRecorded, SUPPORTED_TASKS } from "@/lib/classifier/task-flow";
import { TASK_TYPE_NAMES, taskType, taskTypes } from "./registry";
import { ACCEPTED_TASK_TYPES } from "./schemas";

// The registry is the one list of task types: the classifier shows them, the lab adds them, the API accepts
// them, and what a type's folder proposes to the engine is a configuration the engine accepts.

describe("the task registry", () => {
  it("is every list of task types", () => {
    expect([...SUPPORTED_TASKS]).toEqual(TASK_TYPE_NAMES);
    expect(TASK_TYPES.map(([type]) => type)).toEqual(TASK_TYPE_NAMES);
    expect(ACCEPTED_TASK_TYPES).toEqual(expect.arrayContaining(TASK_TYPE_NAMES));
  });

  it("knows only its own types (no inherited names)", () => {
    expect(taskType("toString")).toBeUndefined();
    expect(taskType("dropdown")).toBeUndefined();
    expect(taskTemplate("dropdown")).toEqual({ type: "dropdown" });
  });

  it.each(TASK_TYPE_NAMES.map((t) => [t]))("a new %s task is of its type, with the value the classifier starts from", (type) => {
    const task = taskTemplate(type);
    expect(task.type).toBe(type);
    expect(emptyValue(task as never)).toEqual(taskTypes[type].emptyValue(task as never));
  });

  it.each(TASK_TYPE_NAMES.map((t) => [t, taskTypes[t].extractor?.type ?? "(question)"]))(
    "the engine accepts the extractor proposed for a %s task (%s)",
    (type) => {
      const extractor = extractorFor({ key: "T0", type });
      const parsed = parseEngineWorkflowConfig({ id: 1, extractors_config: { x: extractor } });
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      expect(extractor.task_key).toBe("T0");
    },
  );

  it.each([
    ["single", null, false, true],
    ["single", 0, true, true],
    ["shortcut", [], true, false],
    ["shortcut", [0], true, true],
    ["combo", null, true, false],
    ["dropdown", 1, true, false],
  ] as const)("a %s task answered %j: may move on %s, recorded %s", (type, value, answered, recorded) => {
    const task = { ...taskTemplate(type) } as never;
    expect(isAnswered(task, value as never)).toBe(answered);
    expect(isRecorded(task, value as never)).toBe(recorded);
  });

  it("every template, filled in, is a valid workflow for the API", () => {
    const tasks = Object.fromEntries(TASK_TYPE_NAMES.map((t, i) => [`T${i}`, taskTemplate(t)]));
    for (const task of Object.values(tasks))
      if (task.answers) task.answers = task.answers.map((_: unknown, i: number) => ({ label: `A${i}` }));
    tasks[`T${TASK_TYPE_NAMES.indexOf("combo")}`].tasks = ["T0"];
    const parsed = ZTasks.safeParse(tasks);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});
