// One subject's classification while the volunteer works on it, free of React: the step shown and the steps
// passed, the answers, the frame and drawing tool chosen, and the task column's tab. What a step shows and
// where it leads is read from the state with `stepOf`. components/classifier/subject-classification.tsx
// dispatches these actions (in the subject's chunk, with the task logic).
import { taskType } from "@/lib/tasks/registry";
import { emptyValue, isStepAnswered, nextTask, shortcutChosen, stepTasks, type Tasks, type TaskValue } from "./task-flow";

export type TaskTab = "task" | "tutorial";

export interface SubjectSession {
  /** The step shown (a task key); null when the workflow has no task. */
  step: string | null;
  /** The steps passed, in order (Back returns to the last). */
  history: string[];
  /** The answers given so far, by task key (a task not answered yet has its type's empty value). */
  values: Record<string, TaskValue>;
  frame: number;
  /** The drawing tool chosen (back to the first on every step). */
  tool: number;
  tab: TaskTab;
}

export type SubjectAction =
  | { type: "answer"; key: string; value: TaskValue }
  /** The n-th answer (from 0) of a question chosen from the keyboard: a single question's answer, a multiple's toggled. */
  | { type: "choose"; key: string; answer: number; multiple: boolean }
  | { type: "next"; to: string }
  | { type: "back" }
  | { type: "frame"; frame: number }
  | { type: "tool"; tool: number }
  | { type: "tab"; tab: TaskTab };

export function startSubject(tasks: Tasks, firstTask: string): SubjectSession {
  return { step: Object.hasOwn(tasks, firstTask) ? firstTask : null, history: [], values: {}, frame: 0, tool: 0, tab: "task" };
}

/** The value of task `key`: the volunteer's answer, or the task's empty value. */
export function answerOf(tasks: Tasks, s: SubjectSession, key: string): TaskValue {
  return Object.hasOwn(s.values, key) ? s.values[key] : emptyValue(tasks[key]);
}

export function subjectReducer(s: SubjectSession, a: SubjectAction): SubjectSession {
  switch (a.type) {
    case "answer":
      return { ...s, values: { ...s.values, [a.key]: a.value } };
    case "choose": {
      if (!a.multiple) return { ...s, values: { ...s.values, [a.key]: a.answer } };
      const chosen = Object.hasOwn(s.values, a.key) && Array.isArray(s.values[a.key]) ? (s.values[a.key] as number[]) : [];
      const value = chosen.includes(a.answer) ? chosen.filter((x) => x !== a.answer) : [...chosen, a.answer];
      return { ...s, values: { ...s.values, [a.key]: value } };
    }
    case "next":
      return s.step === null ? s : { ...s, history: [...s.history, s.step], step: a.to, tool: 0 };
    case "back":
      return s.history.length ? { ...s, step: s.history[s.history.length - 1], history: s.history.slice(0, -1), tool: 0 } : s;
    case "frame":
      return { ...s, frame: a.frame };
    case "tool":
      return { ...s, tool: a.tool };
    case "tab":
      return { ...s, tab: a.tab };
  }
}

/**
 * What the current step shows and allows: its tasks, their values, whether the volunteer may go on, and where
 * to (null: Done). A combo branches as a whole; a single question in a step decides where it goes; a chosen
 * shortcut ends (a task that can end the classification is beside the step's own tasks, never one of them).
 */
export function stepOf(tasks: Tasks, s: SubjectSession) {
  const keys = s.step ? stepTasks(tasks, s.step) : [];
  const valueAt = (key: string) => answerOf(tasks, s, key);
  const main = keys.filter((k) => !taskType(tasks[k].type)?.endsClassification);
  const next =
    s.step && !shortcutChosen(tasks, keys, valueAt) ? nextTask(tasks, s.step, main.length === 1 ? valueAt(main[0]) : null) : null;
  return { keys, valueAt, ready: isStepAnswered(tasks, keys, valueAt), next };
}

/** Every task of the steps passed and the one shown, with its value: what Done records. */
export function answeredTasks(tasks: Tasks, s: SubjectSession): { key: string; value: TaskValue }[] {
  return [...s.history, ...(s.step ? [s.step] : [])]
    .flatMap((step) => stepTasks(tasks, step))
    .map((key) => ({ key, value: answerOf(tasks, s, key) }));
}

/** The action of shortcut key `n` (1 to 9) in a step: the n-th answer of its first question, if it has one. */
export function shortcutChoice(tasks: Tasks, keys: string[], n: number): SubjectAction | null {
  const key = keys.find((k) => tasks[k].type === "single" || tasks[k].type === "multiple");
  if (!key || n < 1 || n > ((tasks[key] as { answers?: unknown[] }).answers?.length ?? 0)) return null;
  return { type: "choose", key, answer: n - 1, multiple: tasks[key].type === "multiple" };
}
