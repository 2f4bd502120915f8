// Slider: a number between `min` and `max` (strings or numbers, as the established clients store them).
import type { Task, TaskTypeDef } from "../types";

/**
 * A slider task's value before it is moved: its defaultValue, else its min. PFE's slider task
 * (app/classifier/tasks/slider/index.jsx) records a moved slider as a number clamped to [min, max] and an
 * untouched one as the task's defaultValue as configured (a string); we record a number in both cases.
 */
export function sliderValue(task: Task, raw?: unknown): number {
  const t = task as { min?: unknown; max?: unknown; defaultValue?: unknown };
  const v = parseFloat(String(raw ?? t.defaultValue ?? t.min ?? 0));
  const min = parseFloat(String(t.min ?? Number.NEGATIVE_INFINITY));
  const max = parseFloat(String(t.max ?? Number.POSITIVE_INFINITY));
  return Math.max(min, Math.min(max, Number.isFinite(v) ? v : 0));
}

export const sliderTask: TaskTypeDef = {
  label: "Slider",
  template: () => ({ type: "slider", instruction: "", min: "0", max: "10", step: "1", defaultValue: "0" }),
  emptyValue: (task) => sliderValue(task),
  isAnswered: (_task, value) => typeof value === "number" && Number.isFinite(value),
  annotationValue: (task, value) => (typeof value === "number" ? value : sliderValue(task, value)),
};
