// Combo: other tasks shown together on one page, in order; recorded as its members, never itself.
import type { Task, TaskDef, TaskTypeDef } from "../types";

const membersOf = (task: Task | TaskDef): string[] => (task as { tasks?: string[] }).tasks ?? [];

export const comboTask: TaskTypeDef = {
  label: "Combo (several tasks on one page)",
  template: () => ({ type: "combo", tasks: [] }),
  emptyValue: () => null,
  recorded: false,
  members: membersOf,
  branches: membersOf,
  links: (key, task) => membersOf(task).map((member) => ({ from: key, to: member, label: "shows" })),
  forget: (task, removed) => ({ ...task, tasks: membersOf(task).filter((k) => k !== removed) }),
};
