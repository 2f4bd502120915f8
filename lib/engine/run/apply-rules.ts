import crypto from "node:crypto";
import type { Sql } from "@/lib/db/sql";
import { evaluateRules } from "@/lib/engine/rules";
import { cachedSubjectMetadata } from "./classification-data";
import { EVENTS } from "./events";
import { loadReductions, type Topic } from "./reduce-target";
import type { TxRunner } from "./stage";
import { loadEngineWorkflow } from "./workflow-config";

/**
 * What conditions look up: per reducer key, the data of its default subgroup, with every subgroup's data
 * under the subgroup name too (`c.num_votes`, `c.zebra.num_votes`).
 */
export function reductionContext(rows: { reducer_key: string; subgroup: string; data: Record<string, unknown> | null }[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const r of rows) {
    const entry = (out[r.reducer_key] ??= {});
    if (r.subgroup === "_default") Object.assign(entry, r.data ?? {});
    else entry[r.subgroup] = r.data ?? {};
  }
  return out;
}

/** One action per rule effect and target: a rule that keeps matching as reductions change does not repeat its effects. */
function dedupeKey(workflowId: number, topic: Topic, targetId: number, ruleIndex: number, effectIndex: number, effect: unknown): string {
  const digest = crypto.createHash("sha1").update(JSON.stringify(effect)).digest("hex").slice(0, 16);
  return `${workflowId}:${topic}:${targetId}:${ruleIndex}:${effectIndex}:${digest}`;
}

export async function recordActions(
  client: Sql,
  workflowId: number,
  topic: Topic,
  targetId: number,
  fired: { ruleIndex: number; effects: { action: string }[] }[],
): Promise<{ id: number; effect_type: string }[]> {
  const rows = fired.flatMap((f) => f.effects.map((effect, i) => ({ effect, key: dedupeKey(workflowId, topic, targetId, f.ruleIndex, i, effect) })));
  if (!rows.length) return [];
  const { rows: inserted } = await client.query<{ id: number; effect_type: string }>(
    `INSERT INTO engine_actions (workflow_id, topic, subject_id, user_id, effect_type, config, dedupe_key, updated_at)
     SELECT $1, $2, CASE WHEN $2 = 'subject' THEN $3::int END, CASE WHEN $2 = 'user' THEN $3::int END, a, c, k, now()
     FROM unnest($4::text[], $5::jsonb[], $6::text[]) AS x(a, c, k)
     ON CONFLICT (dedupe_key) DO NOTHING RETURNING id, effect_type`,
    [workflowId, topic, targetId, rows.map((r) => r.effect.action), rows.map((r) => JSON.stringify(r.effect)), rows.map((r) => r.key)],
  );
  return inserted;
}

/**
 * Stage 3, reductions changed: evaluates the workflow's rules of the topic in order (all matching, first
 * matching, or none) against the target's reductions and, for subjects, the cached subject metadata;
 * records an action per effect of each matching rule (once per rule effect and target).
 */
export async function applyRules(tx: TxRunner, workflowId: number, topic: Topic, targetId: number): Promise<void> {
  await tx(async (client, emit) => {
    const workflow = await loadEngineWorkflow(client, workflowId);
    if (!workflow || workflow.status === "halted" || workflow.rules_applied === "no_rules") return;
    const rules = (workflow.rules_config ?? []).filter((r) => (r.topic ?? "subject") === topic);
    if (!rules.length) return;
    const reductions = reductionContext(await loadReductions(client, topic, workflowId, targetId));
    const subject = topic === "subject" ? (await cachedSubjectMetadata(client, [targetId])).get(targetId) : undefined;
    const fired = evaluateRules(workflow.rules_config ?? [], workflow.rules_applied, topic, { reductions, subject });
    for (const a of await recordActions(client, workflowId, topic, targetId, fired)) {
      // External effects run on the external worker, so a slow service never delays a retirement.
      emit({ name: a.effect_type === "external_effect" ? EVENTS.externalActionCreated : EVENTS.actionCreated, data: { action_id: a.id } });
    }
  });
}
