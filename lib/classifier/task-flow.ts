// The volunteer classifier's task logic, free of React: which task comes next, what an answer looks like
// as an annotation (the established platform's shapes, so its aggregation scripts read ours), and the
// classification a finished subject becomes.

import type { Mark } from "./marks";
import { TOOL_TYPES } from "./tool-types";
export type { Mark } from "./marks";

export interface Answer {
  label: string;
  next?: string | null;
}

export interface Tool {
  type: string;
  label?: string;
  color?: string;
  /** Subtasks asked about each mark of this tool (questions or text); answers go in the mark's `details`. */
  details?: Task[];
}

/** A highlighted span of a text subject (FEM tasks/experimental/highlighter/models/HighlighterAnnotation.js). */
export interface Highlight {
  start: number;
  end: number;
  text: string;
  labelInformation: { color: string; label: string };
}

export type Task =
  | { type: "single" | "multiple"; question: string; answers: Answer[]; help?: string; required?: boolean }
  | { type: "text"; instruction?: string; help?: string; next?: string | null; required?: boolean }
  | { type: "drawing"; instruction?: string; tools: Tool[]; help?: string; next?: string | null; required?: boolean }
  | { type: "combo"; tasks: string[]; next?: string | null }
  | (SurveyTask & { instruction?: string; next?: string | null })
  | { type: string; next?: string | null; [key: string]: unknown };

export type Tasks = Record<string, Task>;

/** One identification in a survey task, as the established classifier records it. */
export interface SurveyItem {
  choice: string;
  answers: Record<string, string | string[]>;
  filters: Record<string, string>;
}

/**
 * What a volunteer has answered for one task: an answer index (single), indices (multiple, shortcut), a
 * number (slider), text, marks, identifications or highlights.
 */
export type TaskValue = number | number[] | string | Mark[] | SurveyItem[] | Highlight[] | null;

/** Task types this classifier can show. Others are listed to the volunteer as not supported here yet. */
export const SUPPORTED_TASKS = new Set(["single", "multiple", "text", "drawing", "combo", "survey", "slider", "shortcut", "highlighter"]);
export const SUPPORTED_TOOLS = new Set<string>(TOOL_TYPES);
/** Task types whose answers are recorded as annotations (a combo is recorded as its members). */
export const RECORDED_TASKS = new Set(["single", "multiple", "text", "drawing", "survey", "slider", "shortcut", "highlighter"]);

/**
 * A slider task's value before it is moved: its defaultValue, else its min. PFE's slider task
 * (app/classifier/tasks/slider/index.jsx) records a moved slider as a number clamped to [min, max] and an
 * untouched one as the task's defaultValue as configured (a string); we record a number in both cases.
 */
export function sliderValue(task: Task, raw?: unknown): number {
  const t = task as { min?: unknown; max?: unknown; defaultValue?: unknown };
  const v = parseFloat(String(raw ?? t.defaultValue ?? t.min ?? 0));
  const min = parseFloat(String(t.min ?? Number.NEGATIVE_INFINITY));
  const max = parseFloat(String(t.max ?? Number.POSITIVE_INFINITY));
  return Math.max(min, Math.min(max, Number.isFinite(v) ? v : 0));
}

/** A task's initial value. */
export function emptyValue(task: Task): TaskValue {
  switch (task.type) {
    case "single":
      return null;
    case "multiple":
    case "drawing":
    case "survey":
    case "shortcut":
    case "highlighter":
      return [];
    case "text":
      return "";
    case "slider":
      return sliderValue(task);
    default:
      return null;
  }
}

/** Whether the volunteer may move on: questions need an answer (multiple only when required), required text needs text. */
export function isAnswered(task: Task, value: TaskValue): boolean {
  switch (task.type) {
    case "single":
      return typeof value === "number";
    case "multiple":
      return !task.required || (Array.isArray(value) && value.length > 0);
    case "text":
      return !task.required || (typeof value === "string" && value.trim() !== "");
    case "highlighter":
    case "drawing":
      return !(task as { required?: boolean }).required || (Array.isArray(value) && value.length > 0);
    case "slider":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return true;
  }
}

/** Whether a step's tasks let the volunteer move on: all answered, or a shortcut ("nothing here") chosen. */
export function isStepAnswered(tasks: Tasks, keys: string[], valueAt: (key: string) => TaskValue): boolean {
  if (shortcutChosen(tasks, keys, valueAt)) return true;
  return keys.every((k) => isAnswered(tasks[k], valueAt(k)));
}

/** Whether one of a step's shortcut tasks has an option chosen: that ends the classification. */
export function shortcutChosen(tasks: Tasks, keys: string[], valueAt: (key: string) => TaskValue): boolean {
  return keys.some((k) => tasks[k]?.type === "shortcut" && Array.isArray(valueAt(k)) && (valueAt(k) as number[]).length > 0);
}

/** A drawing tool's subtasks' starting values, as a mark's `details` (PFE: one `{value}` per subtask). */
export function emptyDetails(tool: Tool | undefined): { value: unknown }[] {
  return (tool?.details ?? []).map((t) => ({ value: emptyValue(t) }));
}

/** The task after this one: a single question's chosen answer may branch; otherwise the task's `next`. null ends. */
export function nextTask(tasks: Tasks, key: string, value: TaskValue): string | null {
  const task = tasks[key];
  if (!task) return null;
  let next: unknown = (task as { next?: unknown }).next;
  if (task.type === "single" && typeof value === "number") next = (task as { answers: Answer[] }).answers[value]?.next ?? next;
  return typeof next === "string" && next !== "" && tasks[next] ? next : null;
}

/**
 * The tasks one step shows: a combo's members, or the task itself; a question's shortcut task (its
 * `unlinkedTask`, the "nothing here" options PFE shows under the answers) comes right after it.
 */
export function stepTasks(tasks: Tasks, key: string): string[] {
  const task = tasks[key];
  const members = task?.type === "combo" ? ((task as { tasks: string[] }).tasks ?? []).filter((k) => tasks[k]) : task ? [key] : [];
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
 * The annotation of one task: marks lose the classifier's own toolType; multiple and shortcut indices are
 * sorted; everything else is sent as answered.
 */
export function annotationFor(task: Task, key: string, value: TaskValue): Annotation {
  if (task.type === "drawing") return { task: key, value: ((value as Mark[]) ?? []).map(({ toolType: _t, ...m }) => m) };
  if (task.type === "multiple" || task.type === "shortcut")
    return { task: key, value: [...((value as number[]) ?? [])].sort((a, b) => a - b) };
  if (task.type === "slider") return { task: key, value: typeof value === "number" ? value : sliderValue(task, value) };
  return { task: key, value };
}

/** Whether a task's answer becomes an annotation: recorded types only, and a shortcut only when one was chosen (as PFE). */
export function isRecorded(task: Task | undefined, value: TaskValue): boolean {
  if (!task || !RECORDED_TASKS.has(task.type)) return false;
  return task.type !== "shortcut" || (Array.isArray(value) && value.length > 0);
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
    if (!SUPPORTED_TASKS.has(task.type)) out.push(key);
    if (task.type === "drawing" && (task as { tools: Tool[] }).tools.some((t) => !SUPPORTED_TOOLS.has(t.type))) out.push(key);
    if (task.type === "combo") (task as { tasks: string[] }).tasks.forEach(visit);
    if (task.type === "single" || task.type === "multiple") for (const a of (task as { answers: Answer[] }).answers) visit(a.next);
    if (typeof (task as { unlinkedTask?: unknown }).unlinkedTask === "string") visit((task as { unlinkedTask?: string }).unlinkedTask);
    visit((task as { next?: string | null }).next);
  };
  visit(firstTask);
  return out;
}

// Survey tasks: choices (species, say) with characteristics to filter them by, and questions asked about
// each identification (how many, what are they doing).

export interface SurveyTask {
  type: "survey";
  choices: Record<
    string,
    {
      label: string;
      characteristics?: Record<string, string[]>;
      noQuestions?: boolean;
      description?: string;
      images?: string[];
      confusions?: Record<string, string>;
      confusionsOrder?: string[];
    }
  >;
  /** Image file names of the choices, to their URLs. */
  images?: Record<string, string>;
  choicesOrder?: string[];
  characteristics?: Record<string, { label: string; values: Record<string, { label: string }>; valuesOrder?: string[] }>;
  characteristicsOrder?: string[];
  questions?: Record<
    string,
    { label: string; multiple?: boolean; required?: boolean; answers: Record<string, { label: string }>; answersOrder?: string[] }
  >;
  questionsOrder?: string[];
}

const ordered = (keys: string[], order?: string[]) => [
  ...(order ?? []).filter((k) => keys.includes(k)),
  ...keys.filter((k) => !(order ?? []).includes(k)),
];

/** The survey's choices in its order, narrowed by characteristic values (`{pattern: "stripes"}`) and a search text. */
export function surveyChoices(task: SurveyTask, filters: Record<string, string>, search = ""): string[] {
  const needle = search.trim().toLowerCase();
  return ordered(Object.keys(task.choices ?? {}), task.choicesOrder).filter((id) => {
    const choice = task.choices[id];
    if (needle && !choice.label.toLowerCase().includes(needle)) return false;
    return Object.entries(filters).every(
      ([characteristic, value]) => !value || (choice.characteristics?.[characteristic] ?? []).includes(value),
    );
  });
}

/** The characteristics in the survey's order, each with its values in order. */
export function surveyCharacteristics(task: SurveyTask): { id: string; label: string; values: { id: string; label: string }[] }[] {
  const all = task.characteristics ?? {};
  return ordered(Object.keys(all), task.characteristicsOrder).map((id) => ({
    id,
    label: all[id].label,
    values: ordered(Object.keys(all[id].values ?? {}), all[id].valuesOrder).map((v) => ({ id: v, label: all[id].values[v].label })),
  }));
}

/** The questions asked about an identification of this choice (none for a choice marked noQuestions). */
export function surveyQuestions(
  task: SurveyTask,
  choiceId: string,
): { id: string; label: string; multiple: boolean; required: boolean; answers: { id: string; label: string }[] }[] {
  if (task.choices?.[choiceId]?.noQuestions) return [];
  const all = task.questions ?? {};
  return ordered(Object.keys(all), task.questionsOrder).map((id) => ({
    id,
    label: all[id].label,
    multiple: !!all[id].multiple,
    required: !!all[id].required,
    answers: ordered(Object.keys(all[id].answers ?? {}), all[id].answersOrder).map((a) => ({ id: a, label: all[id].answers[a].label })),
  }));
}

/** Whether an identification answers every required question of its choice. */
export function surveyItemComplete(task: SurveyTask, item: SurveyItem): boolean {
  return surveyQuestions(task, item.choice).every((q) => {
    if (!q.required) return true;
    const a = item.answers[q.id];
    return Array.isArray(a) ? a.length > 0 : typeof a === "string" && a !== "";
  });
}

/** What helps a volunteer be sure of a choice: its description, its images' URLs, and the choices it is often confused with and how to tell them apart. */
export function surveyChoiceDetails(
  task: SurveyTask,
  id: string,
): { description: string; images: string[]; confusions: { id: string; label: string; text: string }[] } {
  const choice = task.choices[id];
  if (!choice) return { description: "", images: [], confusions: [] };
  const confusions = choice.confusions ?? {};
  return {
    description: choice.description ?? "",
    images: (choice.images ?? []).map((name) => task.images?.[name] ?? name).filter((u) => /^https?:\/\/|^\//.test(u)),
    confusions: ordered(Object.keys(confusions), choice.confusionsOrder)
      .filter((other) => task.choices[other] && confusions[other]?.trim())
      .map((other) => ({ id: other, label: task.choices[other].label, text: confusions[other] })),
  };
}
