// Every task type this platform shows, edits and records: its folder's pure parts under its type's name.
// Adding a task type is its folder (lib/tasks/<type>/, components/tasks/<type>/) and a line in each registry:
// here, lib/tasks/schemas.ts, components/tasks/classifier-views.tsx and components/tasks/lab-editors.tsx
// (docs/adding-a-task-type.md). The order is the lab's "add a task" menu.
import { comboTask } from "./combo";
import { drawingTask } from "./drawing";
import { highlighterTask } from "./highlighter";
import { multipleTask, singleTask } from "./question";
import { shortcutTask } from "./shortcut";
import { sliderTask } from "./slider";
import { surveyTask } from "./survey";
import { textTask } from "./text";
import type { TaskTypeDef } from "./types";

export const taskTypes = {
  single: singleTask,
  multiple: multipleTask,
  text: textTask,
  drawing: drawingTask,
  survey: surveyTask,
  slider: sliderTask,
  shortcut: shortcutTask,
  combo: comboTask,
  highlighter: highlighterTask,
} as const satisfies Record<string, TaskTypeDef>;

export type TaskType = keyof typeof taskTypes;
export const TASK_TYPE_NAMES = Object.keys(taskTypes) as TaskType[];

/** A type's parts, or undefined for a type this platform does not know (the lab keeps it as JSON; the classifier says so). */
export function taskType(type: string | undefined): TaskTypeDef | undefined {
  return type !== undefined && Object.hasOwn(taskTypes, type) ? taskTypes[type as TaskType] : undefined;
}
