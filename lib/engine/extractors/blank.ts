import { ZBlankExtractor } from "./schemas";
import { defineExtractor, taskAnnotations } from "./extractor";

/** An answer counts as empty when it is null, a blank (whitespace-only) string, or an empty array or object. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/**
 * `blank`: `{blank: true}` when the task has no annotations or all their values are empty, else
 * `{blank: false}`. A missing task is blank, so `if_missing` never applies.
 */
export const blankExtractor = defineExtractor(ZBlankExtractor, (config, c) => {
  const annotations = taskAnnotations(c, config.task_key);
  return { blank: annotations.every((a) => isEmptyValue(a.value)) };
});
