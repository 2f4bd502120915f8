import { describe, expect, it } from "vitest";
import { EFFECT_OPTIONS, ENGINE_OPTIONS } from "./engine-options";
import { COMPARISON_LABELS, COMPARISONS } from "./condition-model";
import { ENGINE_LABELS, engineLabel, engineOptions, labelled, TOOL_LABELS } from "./labels";
import { TASK_TYPES } from "./task-editing";
import { DRAWING_TOOL_TYPES } from "@/lib/tasks/drawing";

// Every internal name a lab menu offers has a human label (the name itself is shown in small print beside it).

const human = (label: string | undefined, name: string) => {
  expect(label, name).toBeTruthy();
  expect(label!.trim()).toBe(label);
};

describe("every option of the engine builder has a label", () => {
  it.each(
    Object.entries(ENGINE_OPTIONS).flatMap(([list, values]) => values.map((v) => [list, v] as [keyof typeof ENGINE_OPTIONS, string])),
  )("%s: %s", (list, value) => {
    human((ENGINE_LABELS[list] as Record<string, string>)[value], value);
    expect(engineOptions(list).find((o) => o.value === value)?.label).toBe(engineLabel(list, value));
  });

  it.each(Object.keys(ENGINE_LABELS) as (keyof typeof ENGINE_OPTIONS)[])("%s labels no name its list lacks", (list) => {
    expect(Object.keys(ENGINE_LABELS[list]).sort()).toEqual([...ENGINE_OPTIONS[list]].sort());
  });
});

describe("every other internal name in the lab's menus has a label", () => {
  it.each([
    ...TASK_TYPES.map(([type, label]) => ["task type", type, label]),
    ...DRAWING_TOOL_TYPES.map((t) => ["drawing tool", t, TOOL_LABELS[t]]),
    ...COMPARISONS.map((op) => ["comparison", op, COMPARISON_LABELS[op]]),
    ...EFFECT_OPTIONS.map((e) => ["effect", e.action, e.label]),
  ])("%s %s", (_what, name, label) => human(label, name));
});

describe("labelled", () => {
  it.each([
    ["reduce_by_subject", "Each subject"],
    ["not_a_topic", "not_a_topic"],
  ])("%s shows as %s", (value, label) => {
    expect(labelled([value], ENGINE_LABELS.reducerTopics)).toEqual([{ value, label }]);
    expect(engineLabel("reducerTopics", value)).toBe(label);
  });
});
