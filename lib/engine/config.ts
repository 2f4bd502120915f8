import { z } from "zod";
import { conditionLookups } from "./conditions/schema";
import { ZExtractorConfig } from "./extractors/schemas";
import { ZReducerConfig } from "./reducers/schemas";
import { RULES_APPLIED, ZRules } from "./rules";
import { formatIssues, formatPath, ZKey, zEnum } from "./validation";

// A workflow's decision-engine configuration as `POST/PUT/GET /engine/workflows` carry it (the inner object of
// `{"workflow": {...}}`). Parsing fills every default, so a GET after a save shows them; every error names its
// path: `reducers_config.c.filters.repeated_classifications: must be one of keep_first, keep_last, keep_all`.

export const ENGINE_STATUSES = ["active", "paused", "halted"] as const;
export type EngineStatus = (typeof ENGINE_STATUSES)[number];

/** Reducer keys may not be `subject`: `subject.<key>` in a lookup means subject metadata. */
const RESERVED_REDUCER_KEYS = new Set(["subject"]);

// A PostgreSQL integer: a larger id reached the database's workflow lookup and was a 500 there.
const ZWorkflowId = z
  .union(
    [
      z.number().int().positive(),
      z
        .string()
        .regex(/^\d{1,15}$/)
        .transform(Number),
    ],
    { error: "must be a positive integer" },
  )
  .refine((n) => n > 0 && n <= 2 ** 31 - 1, "must be a positive integer id (at most 2147483647)");

const ZEngineWorkflowConfigShape = z.strictObject({
  id: ZWorkflowId,
  status: zEnum(ENGINE_STATUSES).default("active"),
  rules_applied: zEnum(RULES_APPLIED).default("all_matching_rules"),
  public_extracts: z.boolean({ error: "must be true or false" }).default(false),
  public_reductions: z.boolean({ error: "must be true or false" }).default(false),
  extractors_config: z.record(ZKey, ZExtractorConfig).default({}),
  reducers_config: z.record(ZKey, ZReducerConfig).default({}),
  rules_config: ZRules.default([]),
});

/** Cross-checks between the maps: references to extractors and reducers must name configured ones. */
export const ZEngineWorkflowConfig = ZEngineWorkflowConfigShape.superRefine((config, ctx) => {
  const extractorKeys = new Set(Object.keys(config.extractors_config));
  const needExtractor = (ref: string, path: (string | number)[], whole = false) => {
    const key = whole ? ref : ref.slice(0, ref.indexOf("."));
    if (!extractorKeys.has(key)) ctx.addIssue({ code: "custom", path, message: `'${key}' is not a configured extractor` });
  };
  for (const [key, reducer] of Object.entries(config.reducers_config)) {
    const at = ["reducers_config", key];
    if (RESERVED_REDUCER_KEYS.has(key))
      ctx.addIssue({ code: "custom", path: at, message: `'${key}' is reserved (lookups use 'subject.<key>' for subject metadata)` });
    reducer.filters.extractor_keys.forEach((ek, i) => {
      needExtractor(ek, [...at, "filters", "extractor_keys", ...(i === 0 && reducer.filters.extractor_keys.length === 1 ? [] : [i])], true);
    });
    if (reducer.grouping) needExtractor(reducer.grouping.field_name, [...at, "grouping", "field_name"]);
    if (reducer.type === "summary_stats") needExtractor(reducer.summarize_field, [...at, "summarize_field"]);
    if (reducer.type === "unique_count") needExtractor(reducer.field, [...at, "field"]);
  }
  // A subject rule sees the subject's reductions and metadata; a user rule only the user's reductions.
  config.rules_config.forEach((rule, i) => {
    for (const ref of conditionLookups(rule.if)) {
      const path = ["rules_config", i, "if", ...ref.path];
      if (ref.source === "subject") {
        if (rule.topic === "user")
          ctx.addIssue({ code: "custom", path, message: `lookup '${ref.key}': a user rule cannot read subject metadata` });
        continue;
      }
      const reducer = config.reducers_config[ref.source];
      // A lookup of a reducer that is not configured yields its default (the contract): a warning, below.
      if (reducer && (reducer.topic === "reduce_by_user") !== (rule.topic === "user"))
        ctx.addIssue({
          code: "custom",
          path,
          message: `lookup '${ref.key}': reducer '${ref.source}' is ${reducer.topic}; a ${rule.topic} rule cannot read it`,
        });
    }
  });
});

/**
 * What a valid configuration may still not mean to do: rules without effects, and rules that look up
 * reducers which are not configured (such a lookup always yields its default). Each names its path.
 */
export function configWarnings(config: TEngineWorkflowConfig): string[] {
  const warnings: string[] = [];
  config.rules_config.forEach((rule, i) => {
    if (!rule.then.length) warnings.push(`rules_config[${i}].then: the rule has no effects, so it does nothing`);
    for (const ref of conditionLookups(rule.if)) {
      if (ref.source === "subject" || config.reducers_config[ref.source]) continue;
      warnings.push(
        `${formatPath(["rules_config", i, "if", ...ref.path])}: lookup '${ref.key}': ` +
          `'${ref.source}' is not a configured reducer, so it always yields its default`,
      );
    }
  });
  return warnings;
}

export type TEngineWorkflowConfig = z.output<typeof ZEngineWorkflowConfig>;
export type TEngineWorkflowConfigInput = z.input<typeof ZEngineWorkflowConfig>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * The one key a configuration cannot have: zod leaves `__proto__` out of a parsed map (as assigning it to a
 * plain object would set the prototype), so it would vanish from what is saved, or be looked up as
 * Object.prototype. Refused by name instead.
 */
export const UNSTORABLE_KEY = "__proto__";
const KEYED_MAPS = ["extractors_config", "reducers_config"] as const;

/**
 * Validates a workflow's engine configuration and fills its defaults. Accepts the bare config or the wire
 * envelope `{"workflow": {...}}`. The message names each offending path, joined with "; ".
 */
export function parseEngineWorkflowConfig(input: unknown): ParseResult<TEngineWorkflowConfig> {
  const body =
    input && typeof input === "object" && !Array.isArray(input) && Object.keys(input).length === 1 && "workflow" in input
      ? (input as { workflow: unknown }).workflow
      : input;
  if (!body || typeof body !== "object" || Array.isArray(body)) return { ok: false, message: "workflow: must be an object" };
  for (const map of KEYED_MAPS) {
    const keyed = (body as Record<string, unknown>)[map];
    if (keyed && typeof keyed === "object" && Object.hasOwn(keyed, UNSTORABLE_KEY))
      return { ok: false, message: `${map}.${UNSTORABLE_KEY}: '${UNSTORABLE_KEY}' cannot be a key` };
  }
  const parsed = ZEngineWorkflowConfig.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: formatIssues(parsed.error.issues) };
}
