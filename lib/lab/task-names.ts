// How the lab names a workflow's tasks to a researcher: by their place and their own words ("Task 1: Is
// there an animal…?"), never by their keys (T0), which stay in tooltips and the JSON. The workflow editor,
// its branching canvas and the engine builder's task pickers all name tasks this way.

import type { TaskDef } from "@/lib/tasks/types";

/** Longest task text shown in a name before it is cut with "…". */
const TEXT_MAX = 40;

/** A task's own words: its question, instruction or label (Markdown marks dropped), cut to TEXT_MAX characters. */
export function taskText(task: TaskDef | undefined): string {
  const raw = String(task?.question ?? task?.instruction ?? task?.label ?? "")
    .replace(/[*_`#>[\]]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return raw.length > TEXT_MAX ? `${raw.slice(0, TEXT_MAX - 1).trimEnd()}…` : raw;
}

/** "Task 1: Is there an animal?" (position 0), or "Task 1" while the task has no words yet. */
export function taskName(index: number, task: TaskDef | undefined): string {
  const text = taskText(task);
  return text ? `Task ${index + 1}: ${text}` : `Task ${index + 1}`;
}

/** A workflow's tasks (in the editor's order: the first task first) as choices: the key as value, the name as label. */
export function taskChoices(tasks: { key: string; task: TaskDef }[]): { value: string; label: string }[] {
  return tasks.map((t, i) => ({ value: t.key, label: taskName(i, t.task) }));
}

/** The answers of a question task by their labels ("Yes", "No"), or none for another type. */
export function taskAnswers(task: TaskDef | undefined): string[] {
  return Array.isArray(task?.answers) ? task.answers.map((a: TaskDef, i: number) => String(a?.label ?? `Answer ${i + 1}`)) : [];
}
