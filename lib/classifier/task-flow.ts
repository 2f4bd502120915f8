// The volunteer classifier's task logic, free of React: which task comes next, what an answer looks like
// as an annotation (the established platform's shapes, so its aggregation scripts read ours), and the
// classification a finished subject becomes.

export interface Answer {
  label: string;
  next?: string | null;
}

export interface Tool {
  type: string;
  label?: string;
  color?: string;
}

export type Task =
  | { type: "single" | "multiple"; question: string; answers: Answer[]; help?: string; required?: boolean }
  | { type: "text"; instruction?: string; help?: string; next?: string | null; required?: boolean }
  | { type: "drawing"; instruction?: string; tools: Tool[]; help?: string; next?: string | null }
  | { type: "combo"; tasks: string[]; next?: string | null }
  | { type: string; next?: string | null; [key: string]: unknown };

export type Tasks = Record<string, Task>;

/** Drawing marks as the established classifier records them (coordinates in the image's own pixels). */
export type Mark =
  | { tool: number; toolType: "point"; x: number; y: number; frame: number; details: unknown[] }
  | { tool: number; toolType: "rectangle"; x: number; y: number; width: number; height: number; frame: number; details: unknown[] };

/** What a volunteer has answered for one task: an answer index, indices, text, or marks. */
export type TaskValue = number | number[] | string | Mark[] | null;

/** Task types this classifier can show. Others are listed to the volunteer as not supported here yet. */
export const SUPPORTED_TASKS = new Set(["single", "multiple", "text", "drawing", "combo"]);
export const SUPPORTED_TOOLS = new Set(["point", "rectangle"]);

/** A task's initial value. */
export function emptyValue(task: Task): TaskValue {
  switch (task.type) {
    case "single":
      return null;
    case "multiple":
    case "drawing":
      return [];
    case "text":
      return "";
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
    default:
      return true;
  }
}

/** The task after this one: a single question's chosen answer may branch; otherwise the task's `next`. null ends. */
export function nextTask(tasks: Tasks, key: string, value: TaskValue): string | null {
  const task = tasks[key];
  if (!task) return null;
  let next: unknown = (task as { next?: unknown }).next;
  if (task.type === "single" && typeof value === "number") next = (task as { answers: Answer[] }).answers[value]?.next ?? next;
  return typeof next === "string" && next !== "" && tasks[next] ? next : null;
}

/** The tasks one step shows: a combo's members, or the task itself. */
export function stepTasks(tasks: Tasks, key: string): string[] {
  const task = tasks[key];
  if (task?.type === "combo") return ((task as { tasks: string[] }).tasks ?? []).filter((k) => tasks[k]);
  return task ? [key] : [];
}

export interface Annotation {
  task: string;
  value: unknown;
}

/** The annotation of one task: marks lose the classifier's own toolType; everything else is sent as answered. */
export function annotationFor(task: Task, key: string, value: TaskValue): Annotation {
  if (task.type === "drawing") return { task: key, value: ((value as Mark[]) ?? []).map(({ toolType: _t, ...m }) => m) };
  if (task.type === "multiple") return { task: key, value: [...((value as number[]) ?? [])].sort((a, b) => a - b) };
  return { task: key, value };
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
}

/** The JSON-API body of POST /api/classifications for a finished subject. */
export function classificationBody(c: ClassificationInput) {
  return {
    classifications: {
      completed: true,
      annotations: c.answered.filter(({ key }) => c.tasks[key]).map(({ key, value }) => annotationFor(c.tasks[key], key, value)),
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
    if (task.type === "single" || task.type === "multiple") (task as { answers: Answer[] }).answers.forEach((a) => visit(a.next));
    visit((task as { next?: string | null }).next);
  };
  visit(firstTask);
  return out;
}
