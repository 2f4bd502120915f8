// Feedback on gold-standard subjects, as the established front end does it: a task's `feedback` config holds
// rules ({ id, strategy, messages }), a subject's metadata holds the expected answers (`#feedback_N_id`,
// `#feedback_N_answer`, `#feedback_N_choiceIds`, optional `#feedback_N_successMessage`/`_failureMessage`);
// after Done each matched rule says whether the volunteer's answer was right.

export interface TaskFeedbackRule {
  id: string;
  strategy: string;
  successEnabled?: boolean;
  failureEnabled?: boolean;
  defaultSuccessMessage?: string;
  defaultFailureMessage?: string;
}

export interface TaskFeedbackConfig {
  enabled?: boolean;
  rules?: TaskFeedbackRule[];
}

export interface FeedbackResult {
  taskKey: string;
  ruleId: string;
  success: boolean;
  message: string;
}

type SubjectRule = Record<string, string> & { id: string };

/** `#feedback_N_field` metadata grouped by N, kept when it names a rule id. */
export function subjectFeedbackRules(metadata: Record<string, unknown>): SubjectRule[] {
  const byN = new Map<string, Record<string, string>>();
  for (const [key, value] of Object.entries(metadata ?? {})) {
    const m = /^#feedback_(\d+)_(\w+)$/.exec(key);
    if (!m || value === null || value === undefined) continue;
    if (!byN.has(m[1])) byN.set(m[1], {});
    byN.get(m[1])![m[2]] = String(value);
  }
  return [...byN.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, r]) => r)
    .filter((r): r is SubjectRule => typeof r.id === "string" && r.id !== "");
}

type Strategy = (value: unknown, rule: SubjectRule) => boolean | null;

const choicesOf = (value: unknown) =>
  Array.isArray(value) ? value.map((v) => (v && typeof v === "object" ? String((v as { choice?: unknown }).choice) : String(v))) : [];

/** Strategies by name; null means the subject rule lacks what the strategy needs (no feedback shown). */
export const FEEDBACK_STRATEGIES: Record<string, Strategy> = {
  // A single-answer question: the chosen answer's index equals `answer`.
  singleAnswerQuestion: (value, rule) =>
    rule.answer === undefined ? null : value !== null && value !== undefined && String(value) === rule.answer.trim(),
  // A survey: the identified choices are exactly `choiceIds` (comma-separated), no more, no fewer.
  surveySimple: (value, rule) => {
    if (rule.choiceIds === undefined) return null;
    const expected = new Set(
      rule.choiceIds
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    );
    const chosen = new Set(choicesOf(value));
    return expected.size === chosen.size && [...expected].every((c) => chosen.has(c));
  },
};

/**
 * The feedback for one classification: for each task with feedback enabled, each of its rules the subject
 * names, judged by the rule's strategy; a result whose success or failure message is disabled is left out.
 */
export function evaluateFeedback(
  tasks: Record<string, { feedback?: TaskFeedbackConfig } & Record<string, unknown>>,
  annotations: { task: string; value: unknown }[],
  metadata: Record<string, unknown>,
): FeedbackResult[] {
  const subjectRules = subjectFeedbackRules(metadata);
  const results: FeedbackResult[] = [];
  for (const { task: taskKey, value } of annotations) {
    const config = tasks[taskKey]?.feedback;
    if (!config?.enabled) continue;
    for (const taskRule of config.rules ?? []) {
      const strategy = FEEDBACK_STRATEGIES[taskRule.strategy];
      if (!strategy) continue;
      for (const rule of subjectRules.filter((r) => r.id === taskRule.id)) {
        const success = strategy(value, rule);
        if (success === null) continue;
        if (success && taskRule.successEnabled === false) continue;
        if (!success && taskRule.failureEnabled === false) continue;
        const message = success
          ? rule.successMessage || taskRule.defaultSuccessMessage || "Correct!"
          : rule.failureMessage || taskRule.defaultFailureMessage || "Not quite.";
        results.push({ taskKey, ruleId: rule.id, success, message });
      }
    }
  }
  return results;
}
