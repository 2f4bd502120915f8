// Classifications made up from a workflow's own tasks, for the engine builder's dry run: a researcher with no
// volunteers yet sees what their extractors, reducers and rules would do. Each is a valid answer to the tasks a
// volunteer would go through from the first one (answers' branches followed, a combo's members answered), in
// the shape POST /engine/classifications and the dry run's "classifications" take. Nothing here is saved.
// Browser-safe and pure: randomness comes from the caller (`rand`, a function giving [0, 1)).
import { nextTask, stepTasks, type Task, type Tasks } from "@/lib/classifier/task-flow";
import { taskType } from "@/lib/tasks/registry";

export type Rand = () => number;

/** A classification as the dry run takes it pasted (workflow_id is filled in by the route). */
export interface SampleClassification {
  id: number;
  subject_id: number;
  user_id: null;
  annotations: { task: string; value: unknown }[];
}

const pick = <T>(list: readonly T[], rand: Rand): T => list[Math.min(list.length - 1, Math.floor(rand() * list.length))];
const between = (lo: number, hi: number, rand: Rand) => Math.round(lo + rand() * (hi - lo));
const WORDS = ["zebra", "two", "striped", "near", "water", "tree", "moon", "blurry"];

/** A mark of a drawing tool at a random place, in the shape the classifier records (lib/tasks/drawing/marks.ts). */
function sampleMark(toolType: string, tool: number, details: { value: unknown }[], rand: Rand): Record<string, unknown> {
  const x = between(20, 380, rand);
  const y = between(20, 280, rand);
  const base = { tool, frame: 0, details };
  switch (toolType) {
    case "rectangle":
      return { ...base, x, y, width: between(10, 100, rand), height: between(10, 100, rand) };
    case "circle":
      return { ...base, x, y, r: between(5, 50, rand), angle: 0 };
    case "ellipse":
      return { ...base, x, y, rx: between(5, 50, rand), ry: between(5, 50, rand), angle: 0 };
    case "line":
    case "transcriptionLine":
      return { ...base, x1: x, y1: y, x2: x + between(10, 100, rand), y2: y + between(-20, 20, rand) };
    case "column":
      return { ...base, x, width: between(10, 60, rand) };
    case "polygon":
    case "polyline":
      return {
        ...base,
        points: [
          { x, y },
          { x: x + 30, y },
          { x, y: y + 30 },
        ],
        closed: toolType === "polygon",
      };
    case "freehandLine":
      return {
        ...base,
        points: [
          { x, y },
          { x: x + 10, y: y + 5 },
          { x: x + 20, y: y + 3 },
        ],
      };
    default:
      return { ...base, x, y };
  }
}

type Sampler = (task: Task, rand: Rand) => unknown;

/**
 * A valid answer per task type, as the classifier records it (the annotation's value). Types with no
 * sampler are left unanswered: a shortcut (choosing one ends the classification), a highlighter (it needs the
 * subject's text), a combo (answered as its members), a type this platform does not know.
 */
const SAMPLERS: Record<string, Sampler> = {
  single: (task, rand) => {
    const answers = (task as { answers?: unknown[] }).answers ?? [];
    return answers.length ? Math.floor(rand() * answers.length) % answers.length : undefined;
  },
  multiple: (task, rand) => {
    const n = ((task as { answers?: unknown[] }).answers ?? []).length;
    if (!n) return undefined;
    const chosen = [...Array(n).keys()].filter(() => rand() >= 0.6);
    return chosen.length ? chosen : [Math.floor(rand() * n) % n];
  },
  text: (_task, rand) => `${pick(WORDS, rand)} ${pick(WORDS, rand)}`,
  slider: (task, rand) => {
    const t = task as { min?: unknown; max?: unknown; step?: unknown };
    const min = parseFloat(String(t.min ?? 0)) || 0;
    const max = parseFloat(String(t.max ?? 10));
    const step = parseFloat(String(t.step ?? 1)) || 1;
    const hi = Number.isFinite(max) && max > min ? max : min + 10;
    return Math.min(hi, min + Math.floor((rand() * (hi - min)) / step) * step);
  },
  drawing: (task, rand) => {
    const tools = (task as { tools?: { type: string; details?: Task[] }[] }).tools ?? [];
    if (!tools.length) return [];
    const marks = between(1, 2, rand);
    return Array.from({ length: marks }, () => {
      const index = Math.floor(rand() * tools.length) % tools.length;
      const tool = tools[index];
      const details = (tool.details ?? []).map((d) => ({ value: sampleAnswer(d, rand) ?? null }));
      return sampleMark(tool.type, index, details, rand);
    });
  },
  survey: (task, rand) => {
    const t = task as Extract<Task, { type: "survey" }>;
    const choices = t.choicesOrder?.length ? t.choicesOrder : Object.keys(t.choices ?? {});
    if (!choices.length) return [];
    const choice = pick(choices, rand);
    const answers: Record<string, string | string[]> = {};
    if (!t.choices?.[choice]?.noQuestions)
      for (const q of t.questionsOrder?.length ? t.questionsOrder : Object.keys(t.questions ?? {})) {
        const question = t.questions?.[q];
        if (!question) continue;
        const keys = question.answersOrder?.length ? question.answersOrder : Object.keys(question.answers ?? {});
        if (!keys.length) continue;
        const one = pick(keys, rand);
        answers[q] = question.multiple ? [one] : one;
      }
    return [{ choice, answers, filters: {} }];
  },
};

/** A random valid answer to one task (its annotation's value), or undefined when the task is left unanswered. */
export function sampleAnswer(task: Task, rand: Rand): unknown {
  const sampler = Object.hasOwn(SAMPLERS, task.type) ? SAMPLERS[task.type] : undefined;
  if (!sampler || !taskType(task.type)) return undefined;
  return sampler(task, rand);
}

/** The annotations of one volunteer going through the tasks from `firstTask`: each step's answers, branches followed. At most `maxSteps` steps. */
export function sampleAnnotations(tasks: Tasks, firstTask: string, rand: Rand, maxSteps = 20): { task: string; value: unknown }[] {
  const annotations: { task: string; value: unknown }[] = [];
  const seen = new Set<string>();
  let key: string | null = Object.hasOwn(tasks, firstTask) ? firstTask : null;
  while (key !== null && !seen.has(key) && seen.size < maxSteps) {
    seen.add(key);
    let own: unknown;
    for (const member of stepTasks(tasks, key)) {
      const value = sampleAnswer(tasks[member], rand);
      if (value === undefined) continue;
      annotations.push({ task: member, value });
      if (member === key) own = value;
    }
    key = nextTask(tasks, key, (own ?? null) as Parameters<typeof nextTask>[2]);
  }
  return annotations;
}

/**
 * Classifications by `volunteers` simulated (anonymous) volunteers on each subject. Volunteers mostly agree,
 * as real ones do: each subject has an answer most of them give (`agreement`, the chance a volunteer gives
 * it), so consensus rules have something to find. Ids count up from `firstId`.
 */
export function sampleClassifications({
  tasks,
  firstTask,
  subjectIds,
  volunteers,
  rand,
  agreement = 0.75,
  firstId = 1,
}: {
  tasks: Tasks;
  firstTask: string;
  subjectIds: number[];
  volunteers: number;
  rand: Rand;
  agreement?: number;
  firstId?: number;
}): SampleClassification[] {
  const out: SampleClassification[] = [];
  for (const subjectId of subjectIds) {
    const usual = sampleAnnotations(tasks, firstTask, rand);
    for (let v = 0; v < volunteers; v++)
      out.push({
        id: firstId + out.length,
        subject_id: subjectId,
        user_id: null,
        annotations: rand() < agreement ? usual : sampleAnnotations(tasks, firstTask, rand),
      });
  }
  return out;
}

/**
 * The dry run's example: three volunteers agreeing on the first answer of each task, on one subject (the
 * workflow's first, or subject 1 when it has none), as pretty JSON a researcher can edit.
 */
export function exampleClassificationsJson(tasks: Tasks, firstTask: string, subjectId: number | undefined): string {
  const first: Rand = () => 0;
  const list = sampleClassifications({ tasks, firstTask, subjectIds: [subjectId ?? 1], volunteers: 3, rand: first, agreement: 1 });
  return JSON.stringify(list, null, 2);
}

/** A small seeded generator (mulberry32): the same seed, the same samples (tests, and a "make again" that differs). */
export function seededRandom(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
