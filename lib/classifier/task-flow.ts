// The volunteer classifier's task logic, free of React: which task comes next, what an answer looks like
// as an annotation (the established platform's shapes, so its aggregation scripts read ours), and the
// classification a finished subject becomes. What differs by task type is in the type's folder
// (lib/tasks/<type>/), read through the registry; this is the flow around it.

import { taskType, TASK_TYPE_NAMES } from "@/lib/tasks/registry";
import type { Task, Tasks, TaskValue, Tool } from "@/lib/tasks/types";
import { TOOL_TYPES } from "@/lib/tasks/drawing/tool-types";

export type { Mark, SurveyItem, SurveyTask, Task, Tasks, TaskValue, Tool } from "@/lib/tasks/types";
export { sliderValue } from "@/lib/tasks/slider";
export {
  surveyCharacteristics,
  surveyChoiceDetails,
  surveyChoices,
  surveyItemComplete,
  surveyQuestions,
} from "@/lib/tasks/survey/survey";

/** Task types this classifier can show (the registry's). Others are listed to the volunteer as not supported here yet. */
export const SUPPORTED_TASKS = new Set<string>(TASK_TYPE_NAMES);
export const SUPPORTED_TOOLS = new Set<string>(TOOL_TYPES);
/** Task types whose answers are recorded as annotations (a combo is recorded as its members). */
export const RECORDED_TASKS = new Set<string>(TASK_TYPE_NAMES.filter((t) => taskType(t)!.recorded !== false));

/** A task's initial value. */
export function emptyValue(task: Task): TaskValue {
  return taskType(task.type)?.emptyValue(task) ?? null;
}

/** Whether the volunteer may move on: questions need an answer (multiple only when required), required text needs text. */
export function isAnswered(task: Task, value: TaskValue): boolean {
  return taskType(task.type)?.isAnswered?.(task, value) ?? true;
}

/** Whether a step's tasks let the volunteer move on: all answered, or a shortcut ("nothing here") chosen. */
export function isStepAnswered(tasks: Tasks, keys: string[], valueAt: (key: string) => TaskValue): boolean {
  if (shortcutChosen(tasks, keys, valueAt)) return true;
  return keys.every((k) => isAnswered(tasks[k], valueAt(k)));
}

/** Whether one of a step's shortcut tasks has an option chosen: that ends the classification. */
export function shortcutChosen(tasks: Tasks, keys: string[], valueAt: (key: string) => TaskValue): boolean {
  return keys.some((k) => !!tasks[k] && taskType(tasks[k].type)?.endsClassification?.(valueAt(k)) === true);
}

/** A drawing tool's subtasks' starting values, as a mark's `details` (PFE: one `{value}` per subtask). */
export function emptyDetails(tool: Tool | undefined): { value: unknown }[] {
  return (tool?.details ?? []).map((t) => ({ value: emptyValue(t) }));
}

/** The task after this one: a single question's chosen answer may branch; otherwise the task's `next`. null ends. */
export function nextTask(tasks: Tasks, key: string, value: TaskValue): string | null {
  const task = tasks[key];
  if (!task) return null;
  const def = taskType(task.type);
  const next: unknown = def?.nextFor ? def.nextFor(task, value) : (task as { next?: unknown }).next;
  return typeof next === "string" && next !== "" && tasks[next] ? next : null;
}

/**
 * The tasks one step shows: a combo's members, or the task itself; a question's shortcut task (its
 * `unlinkedTask`, the "nothing here" options PFE shows under the answers) comes right after it.
 */
export function stepTasks(tasks: Tasks, key: string): string[] {
  const task = tasks[key];
  const group = task && taskType(task.type)?.members;
  const members = group ? group(task).filter((k) => tasks[k]) : task ? [key] : [];
  return members.flatMap((k) => {
    const linked = (tasks[k] as { unlinkedTask?: unknown }).unlinkedTask;
    return typeof linked === "string" && tasks[linked]?.type === "shortcut" && !members.includes(linked) ? [k, linked] : [k];
  });
}

export interface Annotation {
  task: string;
  value: unknown;
}

/**
 * The annotation of one task: as its type records it (marks lose the classifier's own toolType, multiple and
 * shortcut indices are sorted, a slider is a number); everything else is sent as answered.
 */
export function annotationFor(task: Task, key: string, value: TaskValue): Annotation {
  const def = taskType(task.type);
  return { task: key, value: def?.annotationValue ? def.annotationValue(task, value) : value };
}

/** Whether a task's answer becomes an annotation: known types only, as the type says (a shortcut only when one was chosen, as PFE). */
export function isRecorded(task: Task | undefined, value: TaskValue): boolean {
  const def = task && taskType(task.type);
  return !!def && def.recorded !== false && (def.isRecorded?.(value) ?? true);
}

export interface ClassificationInput {
  projectId: string;
  workflowId: string;
  workflowVersion: string;
  subjectId: string;
  /** The tasks the volunteer went through, in order, with their values (combo members listed one by one). */
  answered: { key: string; value: TaskValue }[];
  tasks: Tasks;
  startedAt: Date;
  finishedAt: Date;
  userAgent: string;
  userLanguage: string;
  utcOffset: number;
  subjectDimensions: ({ naturalWidth: number; naturalHeight: number; clientWidth: number; clientHeight: number } | null)[];
  selectionState?: Record<string, unknown>;
  /** An expert's reference answers (gold standard mode; the API accepts it from owners, collaborators and experts). */
  goldStandard?: boolean;
}

/** The JSON-API body of POST /api/classifications for a finished subject. */
export function classificationBody(c: ClassificationInput) {
  return {
    classifications: {
      completed: true,
      ...(c.goldStandard ? { gold_standard: true } : {}),
      annotations: c.answered
        .filter(({ key, value }) => isRecorded(c.tasks[key], value))
        .map(({ key, value }) => annotationFor(c.tasks[key], key, value)),
      metadata: {
        started_at: c.startedAt.toISOString(),
        finished_at: c.finishedAt.toISOString(),
        user_agent: c.userAgent,
        user_language: c.userLanguage,
        utc_offset: String(c.utcOffset),
        workflow_version: c.workflowVersion,
        subject_dimensions: c.subjectDimensions,
        source: "quorum-classifier",
        ...(c.selectionState ? { subject_selection_state: c.selectionState } : {}),
      },
      links: { project: c.projectId, workflow: c.workflowId, subjects: [c.subjectId] },
    },
  };
}

/** The tasks a workflow can reach from its first task, for telling a volunteer which types are not supported here. */
export function unsupportedTasks(tasks: Tasks, firstTask: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string | null | undefined) => {
    if (!key || seen.has(key) || !tasks[key]) return;
    seen.add(key);
    const task = tasks[key];
    const def = taskType(task.type);
    if (!def) out.push(key);
    if (def?.isSupported && !def.isSupported(task)) out.push(key);
    def?.branches?.(task).forEach(visit);
    if (typeof (task as { unlinkedTask?: unknown }).unlinkedTask === "string") visit((task as { unlinkedTask?: string }).unlinkedTask);
    visit((task as { next?: string | null }).next);
  };
  visit(firstTask);
  return out;
}
