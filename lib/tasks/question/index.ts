// Questions: one answer (`single`, whose answers may each lead to another task) or several (`multiple`).
// The annotation's value is the answer's index (single) or the sorted indices (multiple).
import type { Answer, Task, TaskDef, TaskTypeDef } from "../types";

const answersOf = (task: Task | TaskDef) => ((task as { answers?: Answer[] }).answers ?? []) as Answer[];
const template = (type: string) => (): TaskDef => ({ type, question: "", answers: [{ label: "" }, { label: "" }] });

export const singleTask: TaskTypeDef = {
  label: "Question, one answer",
  template: template("single"),
  emptyValue: () => null,
  isAnswered: (_task, value) => typeof value === "number",
  nextFor: (task, value) => {
    const next = (task as { next?: unknown }).next;
    return typeof value === "number" ? (answersOf(task)[value]?.next ?? next) : next;
  },
  branches: (task) => answersOf(task).map((a) => a.next),
  ownNext: false,
  links: (key, task) => answersOf(task).map((a) => ({ from: key, to: a.next || null, label: String(a.label || "?") })),
  extractor: { type: "question" },
};

export const multipleTask: TaskTypeDef = {
  label: "Question, several answers",
  template: template("multiple"),
  emptyValue: () => [],
  isAnswered: (task, value) => !(task as { required?: boolean }).required || (Array.isArray(value) && value.length > 0),
  annotationValue: (_task, value) => [...((value as number[]) ?? [])].sort((a, b) => a - b),
  branches: (task) => answersOf(task).map((a) => a.next),
  extractor: { type: "question" },
};
