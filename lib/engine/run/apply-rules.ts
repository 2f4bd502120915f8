import crypto from "node:crypto";
import type { Sql } from "@/lib/db/sql";
import type { EngineTx } from "./engine-tx";
import { evaluateRules, reductionContext } from "@/lib/engine/rules";
import { subjectSpace } from "./boundary";
import { cachedSubjectMetadata } from "./classification-data";
import { EVENTS } from "./events";
import { loadReductionsOf, type Topic } from "./engine-data";
import type { Emit, TxRunner } from "./stage";
import { loadEngineWorkflow } from "./workflow-config";

export { reductionContext };

/** One action per rule effect and target: a rule that keeps matching as reductions change does not repeat its effects. */
function dedupeKey(workflowId: number, topic: Topic, targetId: number, ruleIndex: number, effectIndex: number, effect: unknown): string {
  const digest = crypto.createHash("sha1").update(JSON.stringify(effect)).digest("hex").slice(0, 16);
  return `${workflowId}:${topic}:${targetId}:${ruleIndex}:${effectIndex}:${digest}`;
}

export interface FiredRules {
  targetId: number;
  fired: { ruleIndex: number; effects: { action: string }[] }[];
}

/** Records an action per effect of each fired rule, for many targets of one workflow and topic in one statement; returns the new ones. */
export async function recordActions(
  client: Sql,
  workflowId: number,
  topic: Topic,
  targets: FiredRules[],
): Promise<{ id: number; effect_type: string }[]> {
  const rows = targets.flatMap(({ targetId, fired }) =>
    fired.flatMap((f) =>
      f.effects.map((effect, i) => ({ targetId, effect, key: dedupeKey(workflowId, topic, targetId, f.ruleIndex, i, effect) })),
    ),
  );
  if (!rows.length) return [];
  const { rows: inserted } = await client.query<{ id: number; effect_type: string }>(
    `INSERT INTO engine_actions (workflow_id, topic, subject_id, user_id, effect_type, config, dedupe_key, updated_at)
     SELECT $1, $2, CASE WHEN $2 = 'subject' THEN t END, CASE WHEN $2 = 'user' THEN t END, a, c, k, now()
     FROM unnest($3::int[], $4::text[], $5::jsonb[], $6::text[]) AS x(t, a, c, k)
     ON CONFLICT (dedupe_key) DO NOTHING RETURNING id, effect_type`,
    [
      workflowId,
      topic,
      rows.map((r) => r.targetId),
      rows.map((r) => r.effect.action),
      rows.map((r) => JSON.stringify(r.effect)),
      rows.map((r) => r.key),
    ],
  );
  return inserted;
}

/**
 * Stage 3, reductions changed: evaluates the workflow's rules of the topic in order (all matching, first
 * matching, or none) against the target's reductions and, for subjects, the cached subject metadata;
 * records an action per effect of each matching rule (once per rule effect and target).
 */
export async function applyRules(tx: TxRunner, workflowId: number, topic: Topic, targetId: number): Promise<void> {
  await tx((client, emit) => applyRulesTo(client, emit, workflowId, topic, [targetId]));
}

/** Stage 3 for many targets of one workflow and topic at once, in a fixed number of queries. */
export async function applyRulesTo(client: EngineTx, emit: Emit, workflowId: number, topic: Topic, targetIds: number[]): Promise<void> {
  const workflow = await loadEngineWorkflow(client, workflowId);
  if (!workflow || workflow.status === "halted" || workflow.rules_applied === "no_rules") return;
  if (!(workflow.rules_config ?? []).some((r) => (r.topic ?? "subject") === topic)) return;
  const targets = [...new Set(targetIds)];
  const reductions = await loadReductionsOf(client, topic, workflowId, targets);
  const subjects = topic === "subject" ? await cachedSubjectMetadata(client, subjectSpace(workflow), targets) : new Map();
  const fired = targets.map((targetId) => ({
    targetId,
    fired: evaluateRules(workflow.rules_config ?? [], workflow.rules_applied, topic, {
      reductions: reductionContext(reductions.get(targetId) ?? []),
      subject: subjects.get(targetId),
    }),
  }));
  for (const a of await recordActions(client, workflowId, topic, fired)) {
    // External effects run on the external worker, so a slow service never delays a retirement.
    emit({ name: a.effect_type === "external_effect" ? EVENTS.externalActionCreated : EVENTS.actionCreated, data: { action_id: a.id } });
  }
}
