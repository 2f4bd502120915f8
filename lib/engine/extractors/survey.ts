import { ZSurveyExtractor } from "./schemas";
import { defineExtractor, Missing, taskAnnotations } from "./extractor";

/**
 * `survey`: counts the identified choices, `{"ZEBRA": 1, "LION": 2}` (a choice identified twice counts
 * 2). When the task was answered with nothing identified, `{<nothing_here_choice>: 1}` if configured, else
 * `{}`. Missing when the task has no annotation at all.
 */
export const surveyExtractor = defineExtractor(ZSurveyExtractor, (config, c) => {
  const annotations = taskAnnotations(c, config.task_key);
  if (!annotations.length) return new Missing(`task '${config.task_key}' has no annotation`);
  // Choices are volunteers' strings: no prototype, so `constructor` or `__proto__` is counted like any other.
  const counts: Record<string, number> = Object.create(null);
  for (const a of annotations) {
    const items = Array.isArray(a.value) ? a.value : [];
    for (const item of items) {
      const choice = item && typeof item === "object" ? (item as { choice?: unknown }).choice : undefined;
      if (typeof choice === "string" && choice !== "") counts[choice] = (counts[choice] ?? 0) + 1;
    }
  }
  if (!Object.keys(counts).length && config.nothing_here_choice) counts[config.nothing_here_choice] = 1;
  return counts;
});
