import { z } from "zod";
import { ZTask } from "@/lib/tasks/schemas";

// Workflow task definitions as the established platform's clients write them, validated on save.
// Tasks are keyed ("T0", "T1", ...); `next` links tasks; `first_task` names the entry point.

// Each task type's schema is in its folder (lib/tasks/<type>/schema.ts); lib/tasks/schemas.ts unites them.
export { ZTask };
/**
 * The most a workflow's tasks may hold, as JSON text. Every classify and lab page carries them whole, and
 * escaping megabytes of text for the page costs its thread whatever renders it (docs/hardening.md, "Hostile
 * text"); a survey of hundreds of species with descriptions is a fraction of this.
 */
export const MAX_TASKS_CHARS = 500_000;
export const ZTasks = z
  .record(z.string().regex(/^[\w.-]{1,100}$/, "task keys are letters, digits, '_', '-' or '.'"), ZTask)
  .refine((tasks) => JSON.stringify(tasks).length <= MAX_TASKS_CHARS, `tasks may hold at most ${MAX_TASKS_CHARS} characters of JSON`);
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
