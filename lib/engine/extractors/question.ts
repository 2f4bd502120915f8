import { ZQuestionExtractor } from "./schemas";
import { defineExtractor, Missing, taskAnnotations } from "./extractor";

const isIndex = (v: unknown): v is number | string =>
  (typeof v === "number" && Number.isInteger(v) && v >= 0) || (typeof v === "string" && /^\d+$/.test(v));

/**
 * `question`: counts the chosen answer indexes, `{"0": 1}`; a multiple-answer value (array) counts each
 * index. Missing when the task has no annotation with an answer index (null, absent or non-index values).
 */
export const questionExtractor = defineExtractor(ZQuestionExtractor, (config, c) => {
  const counts: Record<string, number> = {};
  for (const a of taskAnnotations(c, config.task_key)) {
    const values = Array.isArray(a.value) ? a.value : [a.value];
    for (const v of values) if (isIndex(v)) counts[String(Number(v))] = (counts[String(Number(v))] ?? 0) + 1;
  }
  return Object.keys(counts).length ? counts : new Missing(`task '${config.task_key}' has no answer`);
});
