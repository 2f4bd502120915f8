import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { pool } from "@/lib/db";
import { withTransaction, type Sql } from "@/lib/db/sql";
import { configWarnings, parseEngineWorkflowConfig, UNSTORABLE_KEY, type TEngineWorkflowConfig } from "@/lib/engine/config";
import { notFound, unprocessable } from "@/lib/errors";
import { MAX_JSON_DEPTH, parseBoundedJson } from "@/lib/text/json-depth";
import { readJsonBody } from "@/lib/http/request";
import { parsePathId } from "@/lib/text/params";
import { json } from "@/lib/http/respond";
import { forgetEngineWorkflow, saveRuleEffects } from "@/lib/engine/run/workflow-config";
import { type EngineScope, requireEffectTargets } from "@/lib/engine/run/boundary";
import { engineRoute, requireWorkflowEditor, workflowNotFound } from "./engine-routes";

// The established engine's per-resource configuration API, beside the document API of /engine/workflows:
//   /engine/workflows/<id>/extractors[/<id or key>]          {"extractor": {key, type, ...}}
//   /engine/workflows/<id>/reducers[/<id or key>]            {"reducer": {key, type, ...}}
//   /engine/workflows/<id>/subject_rules[/<id>]              {"subject_rule": {condition | condition_string}}
//   /engine/workflows/<id>/user_rules[/<id>]                 {"user_rule": {...}}
//   /engine/workflows/<id>/subject_rules/<id>/subject_rule_effects[/<id>]  {"subject_rule_effect": {action, config}}
//   /engine/workflows/<id>/user_rules/<id>/user_rule_effects[/<id>]
// One source of truth: every change is applied to the stored document, validated whole by the same schemas
// (a 422 names the path, and nothing changes), then written row by row so other rows keep their ids.

type Kind = "extractors" | "reducers";
type RuleTopic = "subject" | "user";

interface StoredRow {
  id: number;
  key: string;
  config: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}
interface StoredEffect {
  id: number;
  position: number;
  action: string;
  config: Record<string, unknown>;
}
interface StoredRule {
  id: number;
  topic: RuleTopic;
  position: number;
  condition: unknown;
  created_at: Date;
  updated_at: Date;
  effects: StoredEffect[];
}
interface Stored {
  workflow: {
    id: number;
    status: string;
    rules_applied: string;
    public_extracts: boolean;
    public_reductions: boolean;
    project_id: number | null;
  };
  extractors: StoredRow[];
  reducers: StoredRow[];
  rules: StoredRule[];
}

/** The stored configuration with row ids, the workflow row locked for the change (404 when not in the engine). */
async function loadStored(client: Sql, workflowId: number, lock: boolean): Promise<Stored> {
  const w = await client.query(
    `SELECT id, status, rules_applied, public_extracts, public_reductions, project_id FROM engine_workflows WHERE id = $1 ${lock ? "FOR UPDATE" : ""}`,
    [workflowId],
  );
  if (!w.rowCount) throw workflowNotFound(workflowId);
  const [extractors, reducers, rules] = await Promise.all([
    client.query(`SELECT id, key, config, created_at, updated_at FROM engine_extractors WHERE workflow_id = $1 ORDER BY id`, [workflowId]),
    client.query(`SELECT id, key, config, created_at, updated_at FROM engine_reducers WHERE workflow_id = $1 ORDER BY id`, [workflowId]),
    client.query(
      `SELECT r.id, r.topic, r.position, r.condition, r.created_at, r.updated_at,
         coalesce((SELECT jsonb_agg(jsonb_build_object('id', e.id, 'position', e.position, 'action', e.action, 'config', e.config) ORDER BY e.position)
                   FROM engine_rule_effects e WHERE e.rule_id = r.id), '[]') AS effects
       FROM engine_rules r WHERE r.workflow_id = $1 ORDER BY r.position`,
      [workflowId],
    ),
  ]);
  return { workflow: w.rows[0], extractors: extractors.rows, reducers: reducers.rows, rules: rules.rows };
}

function documentOf(stored: Stored): Record<string, unknown> {
  return {
    id: stored.workflow.id,
    status: stored.workflow.status,
    rules_applied: stored.workflow.rules_applied,
    public_extracts: stored.workflow.public_extracts,
    public_reductions: stored.workflow.public_reductions,
    extractors_config: Object.fromEntries(stored.extractors.map((e) => [e.key, e.config])),
    reducers_config: Object.fromEntries(stored.reducers.map((r) => [r.key, r.config])),
    rules_config: stored.rules.map((r) => ({ topic: r.topic, if: r.condition, then: r.effects.map((e) => e.config) })),
  };
}

/** Validates the document after a change exactly as a whole-document save would; 422 naming the path otherwise. */
function validated(document: Record<string, unknown>): TEngineWorkflowConfig {
  const parsed = parseEngineWorkflowConfig(document);
  if (!parsed.ok) throw unprocessable(parsed.message);
  return parsed.value;
}

async function finish(client: Sql, workflowId: number) {
  await client.query(`UPDATE engine_workflows SET updated_at = now() WHERE id = $1`, [workflowId]);
  forgetEngineWorkflow(workflowId);
}

// ---- wire shapes (as the established engine renders its records) ----

const NAMED = new Set(["key", "type", "minimum_workflow_version", "topic", "reduction_mode", "filters", "grouping"]);

function serializeKeyed(
  workflowId: number,
  row: { id: number; key: string; created_at: Date; updated_at: Date },
  config: Record<string, unknown>,
) {
  const named = Object.fromEntries(Object.entries(config).filter(([k]) => NAMED.has(k)));
  const rest = Object.fromEntries(Object.entries(config).filter(([k]) => !NAMED.has(k) && k !== "type"));
  return {
    id: row.id,
    workflow_id: workflowId,
    key: row.key,
    ...named,
    config: rest,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function serializeRule(workflowId: number, r: StoredRule) {
  return {
    id: r.id,
    workflow_id: workflowId,
    condition: r.condition,
    row_order: r.position,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The established engine's effect: `{action, config}`; ours is flat (`{action, reason}`). */
function serializeEffect(topic: RuleTopic, ruleId: number, e: StoredEffect) {
  const { action, ...config } = e.config as { action: string };
  return { id: e.id, [`${topic}_rule_id`]: ruleId, action, config };
}

// ---- request bodies ----

// The bodies of the per-resource API, as schemas: each names what is wrong as `<name>.<field>: <problem>`.
const ZJsonObject = z.record(z.string(), z.unknown(), { error: "must be an object" }).refine((v) => !Array.isArray(v), "must be an object");

/** Parses with the schema; a failure is a 422 naming the body's wrapper key and the path. */
function parseBody<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw unprocessable(
    parsed.error.issues
      .map((i) => {
        const where = [name, ...i.path.map(String)].join(".");
        return i.code === "unrecognized_keys"
          ? `${where}: unknown key(s) ${i.keys.map((k) => `'${k}'`).join(", ")}`
          : `${where}: ${i.message}`;
      })
      .join("; "),
  );
}

async function bodyRecord(req: Request, name: string): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req);
  const extra = Object.keys(body).filter((k) => k !== name);
  if (extra.length) throw unprocessable(`Unknown top-level key(s) ${extra.map((k) => `'${k}'`).join(", ")}; expected '${name}'`);
  return parseBody(ZJsonObject, body[name], name);
}

const ZKeyedBody = z.looseObject({
  key: z
    .string({ error: "must be a string" })
    .refine((k) => k !== UNSTORABLE_KEY, `'${UNSTORABLE_KEY}' cannot be a key`)
    .optional(),
  config: ZJsonObject.optional(),
});

/** `{key, type, config: {...}, ...attributes}` (either form, as clients send both) → our flat config and its key. */
function flatten(input: Record<string, unknown>, name: string): { key: string | undefined; config: Record<string, unknown> } {
  const { key, config, ...rest } = parseBody(ZKeyedBody, input, name);
  return { key, config: { ...(config ?? {}), ...rest } };
}

/** Caesar's effect names beside ours. */
const EFFECT_ALIASES: Record<string, string> = { add_to_collection: "add_subject_to_collection", external: "external_effect" };

const ZEffectBody = z.strictObject({ action: z.string({ error: "is required" }), config: ZJsonObject.optional() });

function effectConfig(input: Record<string, unknown>, name: string): Record<string, unknown> {
  const { action, config } = parseBody(ZEffectBody, input, name);
  return { action: Object.hasOwn(EFFECT_ALIASES, action) ? EFFECT_ALIASES[action] : action, ...(config ?? {}) };
}

const ZRuleBody = z.strictObject({
  condition: z.unknown().optional(),
  condition_string: z.string({ error: "must be a string" }).optional(),
  row_order: z.unknown().optional(),
});

function conditionOf(input: Record<string, unknown>, name: string): unknown {
  const { condition, condition_string } = parseBody(ZRuleBody, input, name);
  if (condition_string !== undefined) {
    const parsed = parseBoundedJson(condition_string);
    if (parsed.ok) return parsed.value;
    if (parsed.reason === "too_deep")
      throw unprocessable(`${name}.condition_string is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`);
    throw unprocessable(`${name}.condition_string is not JSON: ${condition_string.slice(0, 80)}`);
  }
  if (condition === undefined) throw unprocessable(`${name}.condition (or condition_string) is required`);
  return condition;
}

// ---- handlers ----

const workflowIdOf = (params: Record<string, string>) => parsePathId(params.id, "workflows");

async function readable(actor: Actor, workflowId: number): Promise<Stored> {
  await requireWorkflowEditor(pool(), actor, workflowId);
  return loadStored(pool(), workflowId, false);
}

/** Runs a change to the stored document in one transaction: edit → validate whole → write. */
async function change<T>(
  actor: Actor,
  workflowId: number,
  fn: (client: Sql, stored: Stored, scope: EngineScope) => Promise<T>,
): Promise<T> {
  return withTransaction(async (client) => {
    const { projectId } = await requireWorkflowEditor(client, actor, workflowId);
    const stored = await loadStored(client, workflowId, true);
    const result = await fn(client, stored, { workflowId, projectId });
    await finish(client, workflowId);
    return result;
  });
}

function findKeyed(rows: StoredRow[], ref: string, what: string): StoredRow {
  const row = (/^\d+$/.test(ref) ? rows.find((r) => r.id === Number(ref)) : undefined) ?? rows.find((r) => r.key === ref);
  if (!row) throw notFound(`Couldn't find ${what} with 'id'=${ref}`);
  return row;
}

const SINGULAR: Record<Kind, string> = { extractors: "extractor", reducers: "reducer" };
const CONFIG_KEY: Record<Kind, "extractors_config" | "reducers_config"> = { extractors: "extractors_config", reducers: "reducers_config" };
const TABLE: Record<Kind, string> = { extractors: "engine_extractors", reducers: "engine_reducers" };

async function writeKeyed(client: Sql, kind: Kind, workflowId: number, key: string, config: Record<string, unknown>, existingId?: number) {
  if (existingId === undefined) {
    const { rows } = await client.query(
      kind === "extractors"
        ? `INSERT INTO engine_extractors (workflow_id, key, type, config, updated_at) VALUES ($1, $2, $3, $4, now()) RETURNING id, key, created_at, updated_at`
        : `INSERT INTO engine_reducers (workflow_id, key, type, config, topic, updated_at) VALUES ($1, $2, $3, $4, $5, now())
          RETURNING id, key, created_at, updated_at`,
      kind === "extractors"
        ? [workflowId, key, config.type, JSON.stringify(config)]
        : [workflowId, key, config.type, JSON.stringify(config), config.topic ?? "reduce_by_subject"],
    );
    return rows[0];
  }
  const { rows } = await client.query(
    kind === "extractors"
      ? `UPDATE engine_extractors SET key = $2, type = $3, config = $4, updated_at = now() WHERE id = $1 RETURNING id, key, created_at, updated_at`
      : `UPDATE engine_reducers SET key = $2, type = $3, config = $4, topic = $5, updated_at = now() WHERE id = $1 RETURNING id, key, created_at, updated_at`,
    kind === "extractors"
      ? [existingId, key, config.type, JSON.stringify(config)]
      : [existingId, key, config.type, JSON.stringify(config), config.topic ?? "reduce_by_subject"],
  );
  return rows[0];
}

function answer(body: object, config: TEngineWorkflowConfig | null, status = 200): Response {
  const warnings = config ? configWarnings(config) : [];
  return json(warnings.length ? { ...body, warnings } : body, status);
}

/** GET (list) and POST (create) of extractors or reducers. */
export function keyedCollectionRoutes(kind: Kind) {
  const name = SINGULAR[kind];
  return {
    GET: engineRoute(async ({ params, actor }) => {
      const workflowId = workflowIdOf(params);
      const stored = await readable(actor, workflowId);
      return json(stored[kind].map((r) => serializeKeyed(workflowId, r, r.config)));
    }),
    POST: engineRoute(async ({ req, params, actor }) => {
      const workflowId = workflowIdOf(params);
      const { key, config } = flatten(await bodyRecord(req, name), name);
      if (!key) throw unprocessable(`${name}.key is required`);
      return change(actor, workflowId, async (client, stored) => {
        if (stored[kind].some((r) => r.key === key)) throw unprocessable(`${name}.key: '${key}' is already a ${name} of this workflow`);
        const doc = documentOf(stored);
        doc[CONFIG_KEY[kind]] = { ...(doc[CONFIG_KEY[kind]] as object), [key]: config };
        const valid = validated(doc);
        const row = await writeKeyed(client, kind, workflowId, key, valid[CONFIG_KEY[kind]][key] as Record<string, unknown>);
        return answer(serializeKeyed(workflowId, row, valid[CONFIG_KEY[kind]][key] as Record<string, unknown>), valid, 201);
      });
    }),
  };
}

/** GET, PUT (replace: attributes given replace the stored ones) and DELETE of one extractor or reducer. */
export function keyedMemberRoutes(kind: Kind) {
  const name = SINGULAR[kind];
  return {
    GET: engineRoute(async ({ params, actor }) => {
      const workflowId = workflowIdOf(params);
      const row = findKeyed((await readable(actor, workflowId))[kind], params.key, name);
      return json(serializeKeyed(workflowId, row, row.config));
    }),
    PUT: engineRoute(async ({ req, params, actor }) => {
      const workflowId = workflowIdOf(params);
      const { key: newKey, config: given } = flatten(await bodyRecord(req, name), name);
      return change(actor, workflowId, async (client, stored) => {
        const row = findKeyed(stored[kind], params.key, name);
        const key = newKey ?? row.key;
        if (key !== row.key && stored[kind].some((r) => r.key === key))
          throw unprocessable(`${name}.key: '${key}' is already a ${name} of this workflow`);
        const doc = documentOf(stored);
        const map = { ...(doc[CONFIG_KEY[kind]] as Record<string, unknown>) };
        delete map[row.key];
        map[key] = { ...row.config, ...given };
        doc[CONFIG_KEY[kind]] = map;
        const valid = validated(doc);
        const written = await writeKeyed(client, kind, workflowId, key, valid[CONFIG_KEY[kind]][key] as Record<string, unknown>, row.id);
        return answer(serializeKeyed(workflowId, written, valid[CONFIG_KEY[kind]][key] as Record<string, unknown>), valid);
      });
    }),
    DELETE: engineRoute(async ({ params, actor }) => {
      const workflowId = workflowIdOf(params);
      return change(actor, workflowId, async (client, stored) => {
        const row = findKeyed(stored[kind], params.key, name);
        const doc = documentOf(stored);
        const map = { ...(doc[CONFIG_KEY[kind]] as Record<string, unknown>) };
        delete map[row.key];
        doc[CONFIG_KEY[kind]] = map;
        validated(doc); // e.g. a reducer still naming this extractor: 422, nothing deleted
        await client.query(`DELETE FROM ${TABLE[kind]} WHERE id = $1`, [row.id]);
        return new Response(null, { status: 204 });
      });
    }),
  };
}

function findRule(stored: Stored, topic: RuleTopic, ref: string): StoredRule {
  const rule = /^\d+$/.test(ref) ? stored.rules.find((r) => r.id === Number(ref) && r.topic === topic) : undefined;
  if (!rule) throw notFound(`Couldn't find ${topic === "subject" ? "SubjectRule" : "UserRule"} with 'id'=${ref}`);
  return rule;
}

/** Closes the gap a deleted rule leaves in the positions (two steps: positions are unique at every moment). */
async function compactRulePositions(client: Sql, workflowId: number, from: number) {
  await client.query(`UPDATE engine_rules SET position = -position - 1 WHERE workflow_id = $1 AND position > $2`, [workflowId, from]);
  await client.query(`UPDATE engine_rules SET position = -position - 2 WHERE workflow_id = $1 AND position < 0`, [workflowId]);
}

/** GET (list) and POST (create, appended last) of subject_rules or user_rules. */
export function ruleCollectionRoutes(topic: RuleTopic) {
  const name = `${topic}_rule`;
  return {
    GET: engineRoute(async ({ params, actor }) => {
      const workflowId = workflowIdOf(params);
      const stored = await readable(actor, workflowId);
      return json(stored.rules.filter((r) => r.topic === topic).map((r) => serializeRule(workflowId, r)));
    }),
    POST: engineRoute(async ({ req, params, actor }) => {
      const workflowId = workflowIdOf(params);
      const condition = conditionOf(await bodyRecord(req, name), name);
      return change(actor, workflowId, async (client, stored) => {
        const doc = documentOf(stored);
        doc.rules_config = [...(doc.rules_config as object[]), { topic, if: condition, then: [] }];
        const valid = validated(doc);
        const rule = valid.rules_config[valid.rules_config.length - 1];
        const { rows } = await client.query(
          `INSERT INTO engine_rules (workflow_id, topic, position, condition, updated_at) VALUES ($1, $2, $3, $4, now())
            RETURNING id, topic, position, condition, created_at, updated_at`,
          [workflowId, topic, stored.rules.length, JSON.stringify(rule.if)],
        );
        return answer(serializeRule(workflowId, { ...rows[0], effects: [] }), valid, 201);
      });
    }),
  };
}

/** GET, PUT (condition) and DELETE (with its effects) of one rule. */
export function ruleMemberRoutes(topic: RuleTopic) {
  const name = `${topic}_rule`;
  return {
    GET: engineRoute(async ({ params, actor }) => {
      const workflowId = workflowIdOf(params);
      return json(serializeRule(workflowId, findRule(await readable(actor, workflowId), topic, params.rule_id)));
    }),
    PUT: engineRoute(async ({ req, params, actor }) => {
      const workflowId = workflowIdOf(params);
      const condition = conditionOf(await bodyRecord(req, name), name);
      return change(actor, workflowId, async (client, stored) => {
        const rule = findRule(stored, topic, params.rule_id);
        const doc = documentOf(stored);
        (doc.rules_config as { if: unknown }[])[rule.position].if = condition;
        const valid = validated(doc);
        const { rows } = await client.query(
          `UPDATE engine_rules SET condition = $2, updated_at = now() WHERE id = $1 RETURNING id, topic, position, condition, created_at, updated_at`,
          [rule.id, JSON.stringify(valid.rules_config[rule.position].if)],
        );
        return answer(serializeRule(workflowId, { ...rows[0], effects: rule.effects }), valid);
      });
    }),
    DELETE: engineRoute(async ({ params, actor }) => {
      const workflowId = workflowIdOf(params);
      return change(actor, workflowId, async (client, stored) => {
        const rule = findRule(stored, topic, params.rule_id);
        await client.query(`DELETE FROM engine_rules WHERE id = $1`, [rule.id]);
        await compactRulePositions(client, workflowId, rule.position);
        return new Response(null, { status: 204 });
      });
    }),
  };
}

function findEffect(rule: StoredRule, topic: RuleTopic, ref: string): StoredEffect {
  const effect = /^\d+$/.test(ref) ? rule.effects.find((e) => e.id === Number(ref)) : undefined;
  if (!effect) throw notFound(`Couldn't find ${topic === "subject" ? "SubjectRuleEffect" : "UserRuleEffect"} with 'id'=${ref}`);
  return effect;
}

/**
 * Validates the rule's effects after a change, and that what they act on lies within the workflow's
 * project (lib/engine/run/boundary.ts); answers the parsed effects (defaults filled).
 */
async function withEffects(
  client: Sql,
  actor: Actor,
  scope: EngineScope,
  stored: Stored,
  rule: StoredRule,
  effects: Record<string, unknown>[],
) {
  const doc = documentOf(stored);
  (doc.rules_config as { then: unknown }[])[rule.position].then = effects;
  const valid = validated(doc);
  const saved = valid.rules_config[rule.position].then;
  await requireEffectTargets(
    client,
    actor,
    scope,
    saved,
    rule.effects.map((e) => e.config),
  );
  return { valid, effects: saved };
}

/** GET (list) and POST (create, appended last) of a rule's effects. */
export function effectCollectionRoutes(topic: RuleTopic) {
  const name = `${topic}_rule_effect`;
  return {
    GET: engineRoute(async ({ params, actor }) => {
      const rule = findRule(await readable(actor, workflowIdOf(params)), topic, params.rule_id);
      return json(rule.effects.map((e) => serializeEffect(topic, rule.id, e)));
    }),
    POST: engineRoute(async ({ req, params, actor }) => {
      const workflowId = workflowIdOf(params);
      const config = effectConfig(await bodyRecord(req, name), name);
      return change(actor, workflowId, async (client, stored, scope) => {
        const rule = findRule(stored, topic, params.rule_id);
        const { valid, effects } = await withEffects(client, actor, scope, stored, rule, [...rule.effects.map((e) => e.config), config]);
        await saveRuleEffects(client, rule.id, effects);
        const { rows } = await client.query(
          `SELECT id, position, action, config FROM engine_rule_effects WHERE rule_id = $1 AND position = $2`,
          [rule.id, effects.length - 1],
        );
        return answer(serializeEffect(topic, rule.id, rows[0]), valid, 201);
      });
    }),
  };
}

/** GET, PUT and DELETE of one effect. */
export function effectMemberRoutes(topic: RuleTopic) {
  const name = `${topic}_rule_effect`;
  return {
    GET: engineRoute(async ({ params, actor }) => {
      const rule = findRule(await readable(actor, workflowIdOf(params)), topic, params.rule_id);
      return json(serializeEffect(topic, rule.id, findEffect(rule, topic, params.effect_id)));
    }),
    PUT: engineRoute(async ({ req, params, actor }) => {
      const workflowId = workflowIdOf(params);
      const config = effectConfig(await bodyRecord(req, name), name);
      return change(actor, workflowId, async (client, stored, scope) => {
        const rule = findRule(stored, topic, params.rule_id);
        const effect = findEffect(rule, topic, params.effect_id);
        const { valid, effects } = await withEffects(
          client,
          actor,
          scope,
          stored,
          rule,
          rule.effects.map((e) => (e.id === effect.id ? config : e.config)),
        );
        await client.query(`UPDATE engine_rule_effects SET action = $2, config = $3 WHERE id = $1`, [
          effect.id,
          effects[effect.position].action,
          JSON.stringify(effects[effect.position]),
        ]);
        return answer(
          serializeEffect(topic, rule.id, { ...effect, action: effects[effect.position].action, config: effects[effect.position] }),
          valid,
        );
      });
    }),
    DELETE: engineRoute(async ({ params, actor }) => {
      const workflowId = workflowIdOf(params);
      return change(actor, workflowId, async (client, stored) => {
        const rule = findRule(stored, topic, params.rule_id);
        const effect = findEffect(rule, topic, params.effect_id);
        await client.query(`DELETE FROM engine_rule_effects WHERE id = $1`, [effect.id]);
        await client.query(`UPDATE engine_rule_effects SET position = -position - 1 WHERE rule_id = $1 AND position > $2`, [
          rule.id,
          effect.position,
        ]);
        await client.query(`UPDATE engine_rule_effects SET position = -position - 2 WHERE rule_id = $1 AND position < 0`, [rule.id]);
        return new Response(null, { status: 204 });
      });
    }),
  };
}
