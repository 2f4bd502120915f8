import { z } from "zod";
import { dispatchOn, ZHttpsUrl, ZIdString, zEnum } from "../validation";

// Effects a rule can trigger. The engine records each as an action and performs it elsewhere (with the action
// id as idempotency key); here they are only validated configs with the topic they apply to.

export const RETIREMENT_REASONS = ["blank", "consensus", "other", "classification_count", "flagged", "nothing_here", "human"] as const;
export type RetirementReason = (typeof RETIREMENT_REASONS)[number];

/** The reason component A stores: `blank` is reported as `nothing_here`, as the established platform does. */
export function retirementReason(reason: RetirementReason | undefined): Exclude<RetirementReason, "blank"> {
  if (!reason) return "other";
  return reason === "blank" ? "nothing_here" : reason;
}

export type EffectTopic = "subject" | "user";

export const ZRetireSubjectEffect = z.strictObject({
  action: z.literal("retire_subject"),
  reason: zEnum(RETIREMENT_REASONS).default("other"),
});
export const ZAddSubjectToSetEffect = z.strictObject({ action: z.literal("add_subject_to_set"), subject_set_id: ZIdString });
export const ZAddSubjectToCollectionEffect = z.strictObject({ action: z.literal("add_subject_to_collection"), collection_id: ZIdString });
/** `reducer_key`: send only that reducer's reductions (the established engine's option); all otherwise. */
export const ZExternalEffect = z.strictObject({
  action: z.literal("external_effect"),
  url: ZHttpsUrl,
  reducer_key: z.string().min(1).max(64).optional(),
});
export const ZPromoteUserEffect = z.strictObject({ action: z.literal("promote_user"), workflow_id: ZIdString });

export interface EffectDef<S extends z.ZodType = z.ZodType> {
  schema: S;
  /** Subject effects receive the subject id; user effects the user id. */
  topic: EffectTopic;
}

export const effects = {
  retire_subject: { schema: ZRetireSubjectEffect, topic: "subject" },
  add_subject_to_set: { schema: ZAddSubjectToSetEffect, topic: "subject" },
  add_subject_to_collection: { schema: ZAddSubjectToCollectionEffect, topic: "subject" },
  external_effect: { schema: ZExternalEffect, topic: "subject" },
  promote_user: { schema: ZPromoteUserEffect, topic: "user" },
} as const satisfies Record<string, EffectDef>;

export type EffectType = keyof typeof effects;
export const EFFECT_TYPES = Object.keys(effects) as EffectType[];
export type EffectConfigOf<T extends EffectType> = z.output<(typeof effects)[T]["schema"]>;
export type TEffectConfig = { [K in EffectType]: EffectConfigOf<K> }[EffectType];

export function effectTopic(effect: { action: string }): EffectTopic {
  return effects[effect.action as EffectType].topic;
}

const schemas = Object.fromEntries(Object.entries(effects).map(([k, d]) => [k, d.schema])) as {
  [K in EffectType]: (typeof effects)[K]["schema"];
};
/** Any effect config: `action` picks the schema. */
export const ZEffectConfig = dispatchOn("action", "effect action", schemas) as unknown as z.ZodType<TEffectConfig, unknown>;
