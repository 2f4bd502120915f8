// What the lab's decision-engine builder offers, taken from the engine's own config schemas
// (lib/engine/*/schemas.ts, effects, rules, config) rather than listed again here: a reducer added to the
// engine (its file and its line in the schemas and registry) is offered by the lab as it is. Only the text a
// researcher reads (an effect's label, its field's label) is the lab's own. Browser-safe: the schema modules
// are zod and pure functions, nothing of the server.
import { ENGINE_STATUSES } from "@/lib/engine/config";
import { effects, EFFECT_TYPES, RETIREMENT_REASONS, type EffectTopic, type EffectType } from "@/lib/engine/effects/effects";
import { EXTRACTOR_TYPES, IF_MISSING, SHAPES, type ExtractorType } from "@/lib/engine/extractors/schemas";
import {
  EMPTY_EXTRACTS,
  GROUPING_IF_MISSING,
  REDUCER_TYPES,
  REDUCTION_MODES,
  REPEATED_CLASSIFICATIONS,
  SUMMARY_OPERATIONS,
  TOPICS,
  TRAINING_BEHAVIORS,
} from "@/lib/engine/reducers/schemas";
import { RULE_TOPICS, RULES_APPLIED } from "@/lib/engine/rules";
import { taskType } from "@/lib/tasks/registry";

/** The choices of every select of the builder, each the engine's own list. */
export const ENGINE_OPTIONS = {
  extractorTypes: EXTRACTOR_TYPES,
  reducerTypes: REDUCER_TYPES,
  statuses: ENGINE_STATUSES,
  rulesApplied: RULES_APPLIED,
  ruleTopics: RULE_TOPICS,
  ifMissing: IF_MISSING,
  shapes: SHAPES,
  reducerTopics: TOPICS,
  reductionModes: REDUCTION_MODES,
  repeatedClassifications: REPEATED_CLASSIFICATIONS,
  trainingBehaviors: TRAINING_BEHAVIORS,
  emptyExtracts: EMPTY_EXTRACTS,
  groupingIfMissing: GROUPING_IF_MISSING,
  summaryOperations: SUMMARY_OPERATIONS,
  retirementReasons: RETIREMENT_REASONS,
} as const;

/** How the builder names an effect, and the one field it asks for (retire_subject asks for its reason instead). */
const EFFECT_TEXT: Record<EffectType, { label: string; field?: [key: string, label: string] }> = {
  retire_subject: { label: "Retire the subject" },
  add_subject_to_set: { label: "Add the subject to a subject set", field: ["subject_set_id", "Subject set"] },
  add_subject_to_collection: { label: "Add the subject to a collection", field: ["collection_id", "Collection id"] },
  external_effect: { label: "Call an external service", field: ["url", "HTTPS URL"] },
  promote_user: { label: "Move the volunteer to another workflow", field: ["workflow_id", "Workflow"] },
};

export interface EffectOption {
  action: EffectType;
  /** The engine's: subject effects in subject rules, user effects in user rules. */
  topic: EffectTopic;
  label: string;
  field?: [key: string, label: string];
}

/** Every effect the engine knows, in its order, with the topic its registry gives it. */
export const EFFECT_OPTIONS: EffectOption[] = EFFECT_TYPES.map((action) => ({
  action,
  topic: effects[action].topic,
  ...EFFECT_TEXT[action],
}));

export const effectOption = (action: string): EffectOption | undefined => EFFECT_OPTIONS.find((e) => e.action === action);

/** What an effect may name, by field, picked by name in the builder (the project's subject sets and workflows). */
export type EffectTargets = Partial<Record<string, { value: string; label: string }[]>>;

/**
 * An effect's settings as the flow's node says them: its field by its label and the record it names by its
 * name (`Subject set: Hard ones`; an id that is not the project's as `#80 (not in this project)`), and the
 * raw settings as the tooltip (`subject_set_id: 80`).
 */
export function effectDetail(effect: Record<string, unknown>, targets: EffectTargets): { detail: string; hint: string } {
  const field = effectOption(String(effect.action))?.field;
  const rest = Object.entries(effect).filter(([k]) => k !== "action");
  const said = rest.map(([k, v]) => {
    if (k === field?.[0]) {
      const value = String(v ?? "");
      const choices = targets[k];
      const named = choices?.find((c) => c.value === value)?.label;
      return `${field[1]}: ${value === "" ? "(not chosen)" : (named ?? (choices ? `#${value} (not in this project)` : value))}`;
    }
    return k === "reason" ? `Reason: ${String(v)}` : `${k}: ${String(v)}`;
  });
  return { detail: said.join(" · "), hint: rest.map(([k, v]) => `${k}: ${String(v)}`).join(" · ") };
}

/**
 * The extractor the builder proposes for a task: the one its type's folder names (lib/tasks/<type>/, e.g. a
 * question's `question`, a survey's `survey`), reading that task; `question` when the type names none.
 */
export function extractorFor(
  task: { key: string; type: string } | undefined,
): { type: ExtractorType; task_key: string } & Record<string, unknown> {
  const proposed = taskType(task?.type)?.extractor;
  const type = EXTRACTOR_TYPES.find((t) => t === proposed?.type) ?? "question";
  return { ...proposed, type, task_key: task?.key ?? "T0" };
}
