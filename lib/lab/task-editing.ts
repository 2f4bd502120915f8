// The lab's workflow editor, free of React: a workflow's tasks as an ordered list of drafts, each the
// API's own task definition (so every type the clients know round-trips, including fields the editor
// does not show), templates for new tasks, and the branching links between tasks. What differs by type
// (templates, links, a survey's bookkeeping) is in the type's folder (lib/tasks/<type>/). Existing tasks
// keep their keys: extractors, exports and aggregations name them.

import { taskType, taskTypes } from "@/lib/tasks/registry";
import type { TaskDef, TaskLink } from "@/lib/tasks/types";

export type { TaskDef, TaskLink } from "@/lib/tasks/types";
export {
  addSurveyEntry,
  choiceImageUrls,
  removeSurveyEntry,
  setChoiceImages,
  setConfusion,
  surveyEntries,
  surveyId,
} from "@/lib/tasks/survey/editing";

export interface TaskDraft {
  key: string;
  task: TaskDef;
}

/** The types the lab adds, with their names: the task registry's, in its order. */
export const TASK_TYPES: [type: string, label: string][] = Object.entries(taskTypes).map(([type, def]) => [type, def.label]);

/** A key no draft uses yet: T0, T1, ... */
export function freshKey(drafts: TaskDraft[]): string {
  for (let i = 0; ; i++) if (!drafts.some((d) => d.key === `T${i}`)) return `T${i}`;
}

/** A new task of a type, as the API takes it; what it needs filled in is left empty. */
export function taskTemplate(type: string): TaskDef {
  return taskType(type)?.template() ?? { type };
}

/** Drafts from a workflow's tasks: the first task first, then in the order the definition lists them. */
export function draftsFromTasks(tasks: Record<string, TaskDef>, firstTask: string): TaskDraft[] {
  const keys = [firstTask, ...Object.keys(tasks).filter((k) => k !== firstTask)].filter((k) => tasks[k]);
  return keys.map((key) => ({ key, task: tasks[key] }));
}

/** The API's tasks from drafts (empty `next` links dropped). */
export function tasksFromDrafts(drafts: TaskDraft[]): Record<string, TaskDef> {
  return Object.fromEntries(drafts.map((d) => [d.key, withoutEmptyNext(d.task)]));
}

function withoutEmptyNext(task: TaskDef): TaskDef {
  const out: TaskDef = { ...task };
  if (!out.next) delete out.next;
  if (Array.isArray(out.answers))
    out.answers = out.answers.map((a: TaskDef) => (a.next ? a : Object.fromEntries(Object.entries(a).filter(([k]) => k !== "next"))));
  if (!out.unlinkedTask) delete out.unlinkedTask;
  return out;
}

/** Whether a task leads on through `next` of its own (a single-answer question leads through its answers). */
export const hasOwnNext = (task: TaskDef) => taskType(task.type)?.ownNext !== false;

/** Where each task leads: a single question's answers, another task's `next`, a combo's members; null is the end. */
export function taskLinks(drafts: TaskDraft[]): TaskLink[] {
  const out: TaskLink[] = [];
  for (const { key, task } of drafts) {
    out.push(...(taskType(task.type)?.links?.(key, task) ?? []));
    if (task.unlinkedTask) out.push({ from: key, to: task.unlinkedTask, label: "shortcut" });
    if (hasOwnNext(task)) out.push({ from: key, to: task.next || null, label: "" });
  }
  return out;
}

/** Tasks nothing leads to and that are not the first: volunteers would never see them. */
export function unreachableTasks(drafts: TaskDraft[]): string[] {
  if (!drafts.length) return [];
  const links = taskLinks(drafts);
  const seen = new Set<string>([drafts[0].key]);
  const queue = [drafts[0].key];
  while (queue.length) {
    const k = queue.shift()!;
    for (const l of links)
      if (l.from === k && l.to && !seen.has(l.to)) {
        seen.add(l.to);
        queue.push(l.to);
      }
  }
  return drafts.map((d) => d.key).filter((k) => !seen.has(k));
}

/** Depth of each task from the first (for drawing the branching graph in columns); unreachable ones last. */
export function taskDepths(drafts: TaskDraft[]): Map<string, number> {
  const depth = new Map<string, number>();
  if (!drafts.length) return depth;
  const links = taskLinks(drafts);
  depth.set(drafts[0].key, 0);
  const queue = [drafts[0].key];
  while (queue.length) {
    const k = queue.shift()!;
    for (const l of links)
      if (l.from === k && l.to && !depth.has(l.to)) {
        depth.set(l.to, depth.get(k)! + 1);
        queue.push(l.to);
      }
  }
  const deepest = Math.max(0, ...depth.values());
  for (const d of drafts) if (!depth.has(d.key)) depth.set(d.key, deepest + 1);
  return depth;
}

/** Removing a task: links to it become the end, combos forget it. */
export function removeTask(drafts: TaskDraft[], key: string): TaskDraft[] {
  const unlink = (t: TaskDef): TaskDef => {
    const out: TaskDef = { ...t };
    if (out.next === key) delete out.next;
    if (out.unlinkedTask === key) delete out.unlinkedTask;
    if (Array.isArray(out.answers)) out.answers = out.answers.map((a: TaskDef) => (a.next === key ? { ...a, next: undefined } : a));
    return taskType(out.type)?.forget?.(out, key) ?? out;
  };
  return drafts.filter((d) => d.key !== key).map((d) => ({ ...d, task: unlink(d.task) }));
}
