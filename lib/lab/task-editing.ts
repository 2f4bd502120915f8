// The lab's workflow editor, free of React: a workflow's tasks as an ordered list of drafts, each the
// API's own task definition (so every type the clients know round-trips, including fields the editor
// does not show), templates for new tasks, the branching links between tasks, and the survey's
// bookkeeping (ids, orders, confusions). Existing tasks keep their keys: extractors, exports and
// aggregations name them.

// biome-ignore lint/suspicious/noExplicitAny: a task of any type as the API's JSON (with fields the editor doesn't show), so it round-trips
export type TaskDef = Record<string, any>;

export interface TaskDraft {
  key: string;
  task: TaskDef;
}

export const TASK_TYPES: [type: string, label: string][] = [
  ["single", "Question, one answer"],
  ["multiple", "Question, several answers"],
  ["text", "Free text"],
  ["drawing", "Drawing (marks)"],
  ["survey", "Survey (identify species)"],
  ["slider", "Slider"],
  ["shortcut", "Shortcut (“nothing here”)"],
  ["combo", "Combo (several tasks on one page)"],
  ["highlighter", "Highlighter (text subjects)"],
];

export const DRAWING_TOOL_TYPES = [
  "point",
  "rectangle",
  "circle",
  "ellipse",
  "line",
  "polygon",
  "polyline",
  "freehandLine",
  "transcriptionLine",
  "column",
] as const;
const TOOL_COLORS = ["#ff0000", "#00a000", "#0050ff", "#ff9900", "#a000c0", "#00a0a0"];

/** A key no draft uses yet: T0, T1, ... */
export function freshKey(drafts: TaskDraft[]): string {
  for (let i = 0; ; i++) if (!drafts.some((d) => d.key === `T${i}`)) return `T${i}`;
}

/** A new task of a type, as the API takes it; what it needs filled in is left empty. */
export function taskTemplate(type: string): TaskDef {
  switch (type) {
    case "single":
    case "multiple":
      return { type, question: "", answers: [{ label: "" }, { label: "" }] };
    case "text":
      return { type, instruction: "" };
    case "drawing":
      return { type, instruction: "", tools: [newTool("point", 0)] };
    case "survey":
      return {
        type,
        instruction: "",
        choices: {},
        choicesOrder: [],
        characteristics: {},
        characteristicsOrder: [],
        questions: {},
        questionsOrder: [],
        images: {},
      };
    case "slider":
      return { type, instruction: "", min: "0", max: "10", step: "1", defaultValue: "0" };
    case "shortcut":
      return { type, answers: [{ label: "Nothing here" }] };
    case "combo":
      return { type, tasks: [] };
    case "highlighter":
      return { type, instruction: "", highlighterLabels: [{ label: "", color: TOOL_COLORS[0] }] };
    default:
      return { type };
  }
}

export function newTool(type: string, index: number): TaskDef {
  return { type, label: "", color: TOOL_COLORS[index % TOOL_COLORS.length], details: [] };
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
export const hasOwnNext = (task: TaskDef) => task.type !== "single" && task.type !== "shortcut";

export interface TaskLink {
  from: string;
  to: string | null;
  label: string;
}

/** Where each task leads: a single question's answers, another task's `next`, a combo's members; null is the end. */
export function taskLinks(drafts: TaskDraft[]): TaskLink[] {
  const out: TaskLink[] = [];
  for (const { key, task } of drafts) {
    if (task.type === "single")
      for (const a of task.answers ?? []) out.push({ from: key, to: a.next || null, label: String(a.label || "?") });
    if (task.type === "combo") for (const member of task.tasks ?? []) out.push({ from: key, to: member, label: "shows" });
    if (task.unlinkedTask) out.push({ from: key, to: task.unlinkedTask, label: "shortcut" });
    if (hasOwnNext(task) && task.type !== "combo") out.push({ from: key, to: task.next || null, label: "" });
    if (task.type === "combo") out.push({ from: key, to: task.next || null, label: "" });
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
    if (out.type === "combo") out.tasks = (out.tasks ?? []).filter((k: string) => k !== key);
    return out;
  };
  return drafts.filter((d) => d.key !== key).map((d) => ({ ...d, task: unlink(d.task) }));
}

// ---- surveys ----

/** An id for a survey entry from its label (upper-case letters and digits, as the established editor makes them), unique among `taken`. */
export function surveyId(label: string, taken: string[]): string {
  const base =
    label
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "")
      .slice(0, 20) || "ITEM";
  let id = base;
  for (let i = 2; taken.includes(id); i++) id = `${base}${i}`;
  return id;
}

type SurveyPart = "choices" | "characteristics" | "questions";
const ORDER: Record<SurveyPart, string> = { choices: "choicesOrder", characteristics: "characteristicsOrder", questions: "questionsOrder" };

/** The entries of a survey part in the survey's order. */
export function surveyEntries(task: TaskDef, part: SurveyPart): [string, TaskDef][] {
  const all: Record<string, TaskDef> = task[part] ?? {};
  const order: string[] = task[ORDER[part]] ?? [];
  const keys = [...order.filter((k) => k in all), ...Object.keys(all).filter((k) => !order.includes(k))];
  return keys.map((k) => [k, all[k]]);
}

/** Adds an entry (choice, characteristic or question) with an id made from its label; returns the task and the id. */
export function addSurveyEntry(task: TaskDef, part: SurveyPart, entry: TaskDef): { task: TaskDef; id: string } {
  const id = surveyId(String(entry.label ?? ""), Object.keys(task[part] ?? {}));
  return {
    id,
    task: { ...task, [part]: { ...(task[part] ?? {}), [id]: entry }, [ORDER[part]]: [...surveyEntries(task, part).map(([k]) => k), id] },
  };
}

export function updateSurveyEntry(task: TaskDef, part: SurveyPart, id: string, entry: TaskDef): TaskDef {
  return { ...task, [part]: { ...(task[part] ?? {}), [id]: entry } };
}

/** Removes an entry; a characteristic leaves the choices' values, a choice leaves the others' confusions. */
export function removeSurveyEntry(task: TaskDef, part: SurveyPart, id: string): TaskDef {
  const rest = Object.fromEntries(Object.entries(task[part] ?? {}).filter(([k]) => k !== id));
  let out: TaskDef = {
    ...task,
    [part]: rest,
    [ORDER[part]]: surveyEntries(task, part)
      .map(([k]) => k)
      .filter((k) => k !== id),
  };
  if (part === "characteristics" || part === "choices") {
    const choices = Object.fromEntries(
      Object.entries(out.choices ?? {}).map(([k, c]) => {
        const choice: TaskDef = { ...(c as TaskDef) };
        if (part === "characteristics" && choice.characteristics)
          choice.characteristics = Object.fromEntries(Object.entries(choice.characteristics).filter(([ch]) => ch !== id));
        if (part === "choices" && choice.confusions) {
          choice.confusions = Object.fromEntries(Object.entries(choice.confusions).filter(([other]) => other !== id));
          choice.confusionsOrder = (choice.confusionsOrder ?? []).filter((o: string) => o !== id);
        }
        return [k, choice];
      }),
    );
    out = { ...out, choices };
  }
  return out;
}

/** A choice's images are file names keyed into the task's `images` map of URLs (the established shape). */
export function setChoiceImages(task: TaskDef, choiceId: string, urls: string[]): TaskDef {
  const names = urls.map((u) => u.split("/").pop()!.split("?")[0] || u);
  const images = { ...(task.images ?? {}) };
  urls.forEach((u, i) => {
    images[names[i]] = u;
  });
  // Drop images no choice uses any more.
  const choices = { ...(task.choices ?? {}), [choiceId]: { ...(task.choices?.[choiceId] ?? {}), images: names } };
  const used = new Set(Object.values(choices).flatMap((c) => ((c as TaskDef).images ?? []) as string[]));
  return { ...task, choices, images: Object.fromEntries(Object.entries(images).filter(([n]) => used.has(n))) };
}

/** A choice's image URLs, in order. */
export function choiceImageUrls(task: TaskDef, choiceId: string): string[] {
  return ((task.choices?.[choiceId]?.images ?? []) as string[]).map((n) => task.images?.[n] ?? n);
}

/** Sets (or, with empty text, removes) what tells a choice apart from another one it is often confused with. */
export function setConfusion(task: TaskDef, choiceId: string, otherId: string, text: string): TaskDef {
  const choice: TaskDef = { ...(task.choices?.[choiceId] ?? {}) };
  const confusions = { ...(choice.confusions ?? {}) };
  const order: string[] = (choice.confusionsOrder ?? []).filter((o: string) => o !== otherId);
  if (text.trim()) {
    confusions[otherId] = text;
    order.push(otherId);
  } else delete confusions[otherId];
  return updateSurveyEntry(task, "choices", choiceId, { ...choice, confusions, confusionsOrder: order });
}
