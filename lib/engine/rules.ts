import { z } from "zod";
import { evaluate, isTruthy, type ConditionContext } from "./conditions/evaluate";
import { ZCondition } from "./conditions/schema";
import { effectTopic, ZEffectConfig } from "./effects/effects";
import { zEnum } from "./validation";

// Rules: `{topic, if: condition, then: [effect, ...]}`, evaluated in order after each reduction.

export const RULE_TOPICS = ["subject", "user"] as const;
export type RuleTopic = (typeof RULE_TOPICS)[number];
export const RULES_APPLIED = ["all_matching_rules", "first_matching_rule", "no_rules"] as const;
export type RulesApplied = (typeof RULES_APPLIED)[number];

export const ZRule = z
  .strictObject({
    topic: zEnum(RULE_TOPICS).default("subject"),
    if: ZCondition,
    // A rule may have no effects yet (the per-resource API adds them one by one): a warning, not an error.
    then: z.array(ZEffectConfig).max(50).default([]),
  })
  .superRefine((rule, ctx) => {
    rule.then.forEach((effect, i) => {
      const topic = effectTopic(effect);
      if (topic !== rule.topic)
        ctx.addIssue({
          code: "custom",
          path: ["then", i, "action"],
          message: `'${effect.action}' is a ${topic} effect; it cannot be used in a ${rule.topic} rule`,
        });
    });
  });
export type TRule = z.output<typeof ZRule>;
export const ZRules = z.array(ZRule).max(500);

export interface FiredRule {
  /** The rule's index in `rules_config`. */
  ruleIndex: number;
  effects: TRule["then"];
}

/**
 * The rules of `topic` whose condition holds, in order, with their effects. `all_matching_rules` returns every
 * match, `first_matching_rule` only the first match of the topic, `no_rules` nothing. Rules without a topic are
 * subject rules. Pure.
 */
export function evaluateRules(
  rules: readonly (Omit<TRule, "topic"> & { topic?: RuleTopic })[],
  rulesApplied: RulesApplied | undefined,
  topic: RuleTopic,
  ctx: ConditionContext,
): FiredRule[] {
  const mode = rulesApplied ?? "all_matching_rules";
  if (mode === "no_rules") return [];
  const fired: FiredRule[] = [];
  for (const [ruleIndex, rule] of rules.entries()) {
    if ((rule.topic ?? "subject") !== topic) continue;
    if (!isTruthy(evaluate(rule.if, ctx))) continue;
    fired.push({ ruleIndex, effects: rule.then });
    if (mode === "first_matching_rule") break;
  }
  return fired;
}

/**
 * What conditions look up: per reducer key, the data of its default subgroup, with every subgroup's data
 * under the subgroup name too (`c.num_votes`, `c.zebra.num_votes`).
 */
export function reductionContext(
  rows: { reducer_key: string; subgroup: string; data: Record<string, unknown> | null }[],
): Record<string, Record<string, unknown>> {
  // No prototypes: a reducer key or subgroup named `constructor` or `__proto__` (subgroups are volunteers'
  // answers) must be an entry, never Object's own; on plain objects Object.assign wrote into Object itself.
  const out: Record<string, Record<string, unknown>> = Object.create(null);
  for (const r of rows) {
    const entry = (out[r.reducer_key] ??= Object.create(null));
    if (r.subgroup === "_default") Object.assign(entry, r.data ?? {});
    else entry[r.subgroup] = r.data ?? {};
  }
  return out;
}
