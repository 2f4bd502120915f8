import type { Task, TaskValue } from "@/lib/tasks/types";

/** What the classifier gives every task type's view (components/tasks/<type>/view.tsx); each reads what it needs. */
export interface TaskViewProps {
  taskKey: string;
  /** `task-<key>`: the id of its input, the name of its group. */
  id: string;
  task: Task;
  value: TaskValue;
  onChange(v: TaskValue): void;
  /** A drawing task's chosen tool, and choosing another. */
  tool: number;
  onTool(i: number): void;
  /** The subject's frame on show (a drawing task lists that frame's marks). */
  frame: number;
  /** The subject's text/plain location, for a highlighter. */
  textUrl: string | null;
}
