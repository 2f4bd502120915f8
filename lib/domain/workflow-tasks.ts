import { z } from "zod";

// Workflow task definitions as the established platform's clients write them, validated on save.
// Tasks are keyed ("T0", "T1", ...); `next` links tasks; `first_task` names the entry point.

const ZText = z.string().max(10_000);
const ZNext = z.string().max(100).nullish();
const ZAnswer = z.looseObject({ label: ZText, next: ZNext });

const ZQuestion = z.looseObject({
  type: z.enum(["single", "multiple"]),
  question: ZText,
  answers: z.array(ZAnswer).min(1, "a question needs at least one answer").max(500),
  help: ZText.optional(),
  required: z.boolean().optional(),
});

// polyline, freehandLine and transcriptionLine are drawn by the volunteer classifier (lib/classifier/marks.ts).
export const DRAWING_TOOLS = [
  "point",
  "rectangle",
  "circle",
  "ellipse",
  "line",
  "polygon",
  "bezier",
  "column",
  "triangle",
  "fullWidthLine",
  "fullHeightLine",
  "polyline",
  "freehandLine",
  "transcriptionLine",
] as const;
const ZTool = z.looseObject({
  type: z.enum(DRAWING_TOOLS, { message: `tool type must be one of ${DRAWING_TOOLS.join(", ")}` }),
  label: ZText.optional(),
  color: z.string().max(50).optional(),
  details: z
    .array(z.looseObject({ type: z.string() }))
    .max(50)
    .optional(),
  min: z.union([z.number(), z.string()]).nullish(),
  max: z.union([z.number(), z.string()]).nullish(),
});
const ZDrawing = z.looseObject({
  type: z.literal("drawing"),
  instruction: ZText.optional(),
  tools: z.array(ZTool).min(1, "a drawing task needs at least one tool").max(50),
  next: ZNext,
  help: ZText.optional(),
});

const ZLabelled = z.looseObject({ label: ZText });
const ZSurvey = z.looseObject({
  type: z.literal("survey"),
  choices: z.record(z.string(), z.looseObject({ label: ZText, characteristics: z.record(z.string(), z.array(z.string())).optional() })),
  choicesOrder: z.array(z.string()).optional(),
  characteristics: z
    .record(
      z.string(),
      z.looseObject({ label: ZText, values: z.record(z.string(), ZLabelled), valuesOrder: z.array(z.string()).optional() }),
    )
    .optional(),
  characteristicsOrder: z.array(z.string()).optional(),
  questions: z
    .record(
      z.string(),
      z.looseObject({
        label: ZText,
        multiple: z.boolean().optional(),
        required: z.boolean().optional(),
        answers: z.record(z.string(), ZLabelled),
        answersOrder: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  questionsOrder: z.array(z.string()).optional(),
  next: ZNext,
});

const ZTextTask = z.looseObject({ type: z.literal("text"), instruction: ZText.optional(), help: ZText.optional(), next: ZNext });
const ZCombo = z.looseObject({ type: z.literal("combo"), tasks: z.array(z.string()).min(1).max(50), next: ZNext });
// Other task types the clients know (shortcut, slider, highlighter, dropdown, ...) pass with a type only.
const ZOther = z.looseObject({
  type: z.enum(["shortcut", "slider", "highlighter", "dropdown", "dataVisAnnotation", "transcription"]),
  next: ZNext,
});

export const ZTask = z.discriminatedUnion("type", [ZQuestion, ZDrawing, ZSurvey, ZTextTask, ZCombo, ZOther], {
  error: (i) =>
    i.code === "invalid_union"
      ? "task type must be one of single, multiple, drawing, survey, text, combo, shortcut, slider, highlighter, dropdown"
      : undefined,
});
export const ZTasks = z.record(z.string().regex(/^[\w.-]{1,100}$/, "task keys are letters, digits, '_', '-' or '.'"), ZTask);
export type Tasks = z.infer<typeof ZTasks>;

/** Cross-task rules zod cannot see: every `next` and combo member exists, first_task exists, no nested combos. */
export function taskGraphErrors(tasks: Tasks, firstTask: string): string[] {
  const errors: string[] = [];
  const keys = new Set(Object.keys(tasks));
  if (firstTask && !keys.has(firstTask)) errors.push(`first_task '${firstTask}' is not a task`);
  if (!firstTask && keys.size > 0) errors.push("first_task is required when there are tasks");
  const checkNext = (where: string, next: unknown) => {
    if (typeof next === "string" && next !== "" && !keys.has(next)) errors.push(`${where}.next '${next}' is not a task`);
  };
  for (const [key, task] of Object.entries(tasks)) {
    checkNext(`tasks.${key}`, (task as { next?: unknown }).next);
    if (task.type === "single" || task.type === "multiple")
      task.answers.forEach((a, i) => {
        checkNext(`tasks.${key}.answers[${i}]`, a.next);
      });
    if (task.type === "combo") {
      for (const sub of task.tasks) {
        if (!keys.has(sub)) errors.push(`tasks.${key}.tasks: '${sub}' is not a task`);
        else if (tasks[sub].type === "combo") errors.push(`tasks.${key}.tasks: combo '${sub}' cannot be nested`);
      }
    }
  }
  return errors;
}

const TEXT_KEYS = new Set(["label", "question", "instruction", "help", "description", "explanation", "title", "content"]);

/** The tasks with every human-readable string removed: what a major version tracks. */
export function taskStructure(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(taskStructure);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !TEXT_KEYS.has(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, taskStructure(v)]),
    );
  }
  return value;
}

const canonical = (v: unknown): string => JSON.stringify(taskStructureWithText(v));
function taskStructureWithText(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(taskStructureWithText);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, taskStructureWithText(v)]),
    );
  return value;
}

/**
 * How a workflow's "major.minor" version moves on an edit: major when the tasks' structure or first_task
 * change, minor when only their strings change, neither otherwise.
 */
export function nextVersion(
  before: { tasks: unknown; firstTask: string; majorVersion: number; minorVersion: number },
  after: { tasks: unknown; firstTask: string },
): { majorVersion: number; minorVersion: number } {
  const structureChanged =
    JSON.stringify(taskStructure(before.tasks)) !== JSON.stringify(taskStructure(after.tasks)) || before.firstTask !== after.firstTask;
  if (structureChanged) return { majorVersion: before.majorVersion + 1, minorVersion: before.minorVersion };
  if (canonical(before.tasks) !== canonical(after.tasks))
    return { majorVersion: before.majorVersion, minorVersion: before.minorVersion + 1 };
  return { majorVersion: before.majorVersion, minorVersion: before.minorVersion };
}

export const ZRetirement = z.union([
  z.strictObject({
    criteria: z.literal("classification_count"),
    options: z.strictObject({ count: z.number().int().min(1).max(1_000_000) }).optional(),
  }),
  z.strictObject({ criteria: z.literal("never_retire"), options: z.strictObject({}).optional() }),
  z.strictObject({}),
]);
export const DEFAULT_RETIREMENT_COUNT = 15;

/** The classification count that retires a subject, or null for never. */
export function retirementLimit(retirement: unknown): number | null {
  const r = (retirement ?? {}) as { criteria?: string; options?: { count?: number } };
  if (r.criteria === "never_retire") return null;
  return r.options?.count ?? DEFAULT_RETIREMENT_COUNT;
}
