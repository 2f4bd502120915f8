import type { Sql } from "@/lib/db/sql";
import { configWarnings, type TEngineWorkflowConfig } from "@/lib/engine/config";

// An engine workflow's configuration: stored normalised (one row per extractor, reducer, rule and effect),
// read back in one query in the wire shape the configuration API speaks and the stages run on.

export interface EngineWorkflow extends TEngineWorkflowConfig {
  project_id: number | null;
  created_at: string;
  updated_at: string;
}

const LOAD_SQL = `
  SELECT w.id, w.project_id, w.status, w.rules_applied, w.public_extracts, w.public_reductions, w.created_at, w.updated_at,
    coalesce((SELECT jsonb_object_agg(e.key, e.config) FROM engine_extractors e WHERE e.workflow_id = w.id), '{}') AS extractors_config,
    coalesce((SELECT jsonb_object_agg(r.key, r.config) FROM engine_reducers r WHERE r.workflow_id = w.id), '{}') AS reducers_config,
    coalesce((SELECT jsonb_agg(jsonb_build_object('topic', ru.topic, 'if', ru.condition, 'then',
               coalesce((SELECT jsonb_agg(ef.config ORDER BY ef.position) FROM engine_rule_effects ef WHERE ef.rule_id = ru.id), '[]'))
             ORDER BY ru.position) FROM engine_rules ru WHERE ru.workflow_id = w.id), '[]') AS rules_config
  FROM engine_workflows w WHERE w.id = $1`;

// Every stage reads its workflow's configuration: keep it for a moment. A save in this process drops its
// entry at once; other processes see a change within CONFIG_CACHE_MS.
const CONFIG_CACHE_MS = Number(process.env.ENGINE_CONFIG_CACHE_MS ?? 2000);
const cache = new Map<number, { at: number; value: EngineWorkflow | null }>();

export function forgetEngineWorkflow(workflowId: number) {
  cache.delete(workflowId);
}

/** The engine's configuration of a workflow, or null when the engine does not act on it. */
export async function loadEngineWorkflow(client: Sql, workflowId: number, opts: { fresh?: boolean } = {}): Promise<EngineWorkflow | null> {
  const hit = cache.get(workflowId);
  if (!opts.fresh && hit && Date.now() - hit.at < CONFIG_CACHE_MS) return hit.value;
  const value = await readEngineWorkflow(client, workflowId);
  cache.set(workflowId, { at: Date.now(), value });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return value;
}

async function readEngineWorkflow(client: Sql, workflowId: number): Promise<EngineWorkflow | null> {
  const { rows } = await client.query(LOAD_SQL, [workflowId]);
  const r = rows[0];
  if (!r) return null;
  return {
    ...r,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  } as EngineWorkflow;
}

/**
 * Replaces a workflow's whole configuration (in the caller's transaction), so nothing is half-saved. Rows
 * keep their ids: extractors and reducers by key, rules (and their effects) by position, so the
 * per-resource API's ids stay valid across document saves.
 */
export async function saveEngineWorkflow(client: Sql, config: TEngineWorkflowConfig, projectId: number | null): Promise<void> {
  const id = Number(config.id);
  forgetEngineWorkflow(id);
  await client.query(
    `INSERT INTO engine_workflows (id, project_id, status, rules_applied, public_extracts, public_reductions, updated_at) VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (id) DO UPDATE SET project_id = excluded.project_id, status = excluded.status, rules_applied = excluded.rules_applied,
       public_extracts = excluded.public_extracts, public_reductions = excluded.public_reductions, updated_at = now()`,
    [id, projectId, config.status, config.rules_applied, config.public_extracts, config.public_reductions],
  );
  const extractors = Object.entries(config.extractors_config ?? {});
  await client.query(`DELETE FROM engine_extractors WHERE workflow_id = $1 AND NOT (key = ANY($2::text[]))`, [
    id,
    extractors.map(([k]) => k),
  ]);
  if (extractors.length) {
    await client.query(
      `INSERT INTO engine_extractors (workflow_id, key, type, config, updated_at) SELECT $1, k, t, c, now()
        FROM unnest($2::text[], $3::text[], $4::jsonb[]) AS x(k, t, c)
       ON CONFLICT (workflow_id, key) DO UPDATE SET type = excluded.type, config = excluded.config, updated_at = now()`,
      [id, extractors.map(([k]) => k), extractors.map(([, v]) => v.type), extractors.map(([, v]) => JSON.stringify(v))],
    );
  }
  const reducers = Object.entries(config.reducers_config ?? {});
  await client.query(`DELETE FROM engine_reducers WHERE workflow_id = $1 AND NOT (key = ANY($2::text[]))`, [id, reducers.map(([k]) => k)]);
  if (reducers.length) {
    await client.query(
      `INSERT INTO engine_reducers (workflow_id, key, type, topic, config, updated_at) SELECT $1, k, t, tp, c, now()
        FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[]) AS x(k, t, tp, c)
       ON CONFLICT (workflow_id, key) DO UPDATE SET type = excluded.type, topic = excluded.topic, config = excluded.config, updated_at = now()`,
      [
        id,
        reducers.map(([k]) => k),
        reducers.map(([, v]) => v.type),
        reducers.map(([, v]) => v.topic ?? "reduce_by_subject"),
        reducers.map(([, v]) => JSON.stringify(v)),
      ],
    );
  }
  const rules = config.rules_config ?? [];
  // Rules beyond the new count go (their effects cascade); the rule at position i keeps its id.
  await client.query(`DELETE FROM engine_rules WHERE workflow_id = $1 AND position >= $2`, [id, rules.length]);
  for (const [position, rule] of rules.entries()) {
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO engine_rules (workflow_id, topic, position, condition, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (workflow_id, position) DO UPDATE SET topic = excluded.topic, condition = excluded.condition, updated_at = now() RETURNING id`,
      [id, rule.topic ?? "subject", position, JSON.stringify(rule.if)],
    );
    await saveRuleEffects(client, rows[0].id, rule.then ?? []);
  }
}

/** A rule's effects in order; the effect at position i keeps its id. */
export async function saveRuleEffects(client: Sql, ruleId: number, effects: readonly { action: string }[]): Promise<void> {
  await client.query(`DELETE FROM engine_rule_effects WHERE rule_id = $1 AND position >= $2`, [ruleId, effects.length]);
  if (!effects.length) return;
  await client.query(
    `INSERT INTO engine_rule_effects (rule_id, position, action, config) SELECT $1, p - 1, a, c FROM unnest($2::text[], $3::jsonb[])
      WITH ORDINALITY AS x(a, c, p)
     ON CONFLICT (rule_id, position) DO UPDATE SET action = excluded.action, config = excluded.config`,
    [ruleId, effects.map((e) => e.action), effects.map((e) => JSON.stringify(e))],
  );
}

/** The wire shape of GET /engine/workflows/<id>. */
export function serializeEngineWorkflow(w: EngineWorkflow) {
  const warnings = configWarnings(w);
  const workflow = {
    id: w.id,
    project_id: w.project_id,
    status: w.status,
    rules_applied: w.rules_applied,
    public_extracts: w.public_extracts,
    public_reductions: w.public_reductions,
    extractors_config: w.extractors_config,
    reducers_config: w.reducers_config,
    rules_config: w.rules_config,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
  // The workflow's fields at the top level, as the established engine answers (its clients read them
  // there), and under `workflow`, as this API's documents carry it; beside them what the configuration
  // may not mean to do (absent when nothing).
  return { ...workflow, workflow, ...(warnings.length ? { warnings } : {}) };
}
