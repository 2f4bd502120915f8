// The lab's workflow editor, free of React: question and text tasks as drafts, and the API's task
// definitions they become. Existing tasks keep their keys (extractors, exports and aggregations name them).

export interface DraftTask {
  key: string;
  type: "single" | "multiple" | "text";
  question: string;
  answers: { label: string; next: string }[];
  next: string;
}

/** A key no draft uses yet: T0, T1, ... (existing tasks keep theirs, which extractors and exports name). */
export function freshKey(drafts: DraftTask[]): string {
  for (let i = 0; ; i++) if (!drafts.some((d) => d.key === `T${i}`)) return `T${i}`;
}

export const emptyDraft = (key: string): DraftTask => ({ key, type: "single", question: "", answers: [{ label: "", next: "" }, { label: "", next: "" }], next: "" });

/** The API's task definitions from the editor's drafts; the first draft is the first task; `next` links as chosen. */
export function toTasks(drafts: DraftTask[]) {
  return Object.fromEntries(
    drafts.map((d) => {
      const next = d.next || undefined;
      if (d.type === "text") return [d.key, { type: "text", instruction: d.question, ...(next ? { next } : {}) }];
      return [
        d.key,
        {
          type: d.type,
          question: d.question,
          answers: d.answers.map((a) => ({ label: a.label, ...(d.type === "single" && a.next ? { next: a.next } : {}) })),
          ...(d.type === "multiple" && next ? { next } : {}),
        },
      ];
    }),
  );
}

/** Drafts from a workflow's tasks, first task first; null when a task is of a type this editor does not write. */
export function draftsFrom(tasks: Record<string, Record<string, any>>, firstTask: string): DraftTask[] | null {
  const keys = [firstTask, ...Object.keys(tasks).filter((k) => k !== firstTask)].filter((k) => tasks[k]);
  const drafts: DraftTask[] = [];
  for (const key of keys) {
    const t = tasks[key];
    if (t.type === "text") drafts.push({ key, type: "text", question: String(t.instruction ?? ""), answers: [], next: String(t.next ?? "") });
    else if (t.type === "single" || t.type === "multiple")
      drafts.push({ key, type: t.type, question: String(t.question ?? ""), answers: (t.answers ?? []).map((a: any) => ({ label: String(a.label ?? ""), next: String(a.next ?? "") })), next: String(t.next ?? "") });
    else return null;
  }
  return drafts;
}

