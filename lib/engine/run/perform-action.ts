import type { Sql } from "@/lib/db/sql";
import { addSubjectsToSet } from "@/lib/domain/subject-set-members";
import { parseRetirementReason, retireSubjects } from "@/lib/domain/retire-subjects";
import { retirementReason } from "@/lib/engine/effects/effects";
import { AppError } from "@/lib/errors";
import type { Tx } from "@/lib/db/types";
import { loadReductions, type Topic } from "./engine-data";
import { reductionContext } from "./apply-rules";
import { actionOutOfScope, RETIREMENT_IN_SCOPE_SQL } from "./boundary";
import { maxExternalAttempts } from "./enqueue-events";
import { postExternal } from "./external-call";
import type { TxRunner } from "./stage";
import type { EngineTx } from "./engine-tx";
import { noteRetired } from "./timeline";

// Stage 4, action created: performs one recorded action against component A in-process (or an external
// service), with the action id as idempotency key: a completed or failed action is never performed again,
// and every in-process effect is itself idempotent (retiring a retired subject, adding a member twice).

/** An effect that cannot succeed however often it is retried (its target does not exist). */
class PermanentError extends Error {}

interface ActionRow {
  id: number;
  workflow_id: number;
  topic: Topic;
  subject_id: number | null;
  user_id: number | null;
  effect_type: string;
  config: Record<string, unknown>;
  status: string;
  attempts: number;
}

/** Lets pg-client code call helpers written for Prisma transactions (raw SQL only). */
function asTx(client: Sql): Tx {
  return {
    $queryRawUnsafe: async (sql: string, ...values: unknown[]) => (await client.query(sql, values)).rows,
    $executeRawUnsafe: async (sql: string, ...values: unknown[]) => (await client.query(sql, values)).rowCount ?? 0,
  } as unknown as Tx;
}

async function performInProcess(client: EngineTx, a: ActionRow): Promise<void> {
  const outOfScope = await actionOutOfScope(client, a);
  if (outOfScope) throw new PermanentError(outOfScope);
  const c = a.config;
  switch (a.effect_type) {
    case "retire_subject":
      await retireSubjects(
        client,
        a.workflow_id,
        [a.subject_id!],
        parseRetirementReason(retirementReason(c.reason as Parameters<typeof retirementReason>[0])),
        client.retired.note,
      );
      noteRetired(client, a.workflow_id, [a.subject_id!]);
      return;
    case "add_subject_to_set": {
      const { rows } = await client.query<{ id: number; project_id: number }>(`SELECT id, project_id FROM subject_sets WHERE id = $1`, [
        Number(c.subject_set_id),
      ]);
      if (!rows[0]) throw new PermanentError(`subject set ${c.subject_set_id} does not exist`);
      await addSubjectsToSet(asTx(client), { id: rows[0].id, projectId: rows[0].project_id }, [a.subject_id!]);
      return;
    }
    case "add_subject_to_collection": {
      const res = await client.query(
        `INSERT INTO collection_subjects (collection_id, subject_id) SELECT id, $2 FROM collections WHERE id = $1 ON CONFLICT DO NOTHING`,
        [Number(c.collection_id), a.subject_id],
      );
      if (!res.rowCount) {
        const exists = await client.query(`SELECT 1 FROM collections WHERE id = $1`, [Number(c.collection_id)]);
        if (!exists.rowCount) throw new PermanentError(`collection ${c.collection_id} does not exist`);
      }
      return;
    }
    case "promote_user": {
      const { rows } = await client.query<{ project_id: number }>(`SELECT project_id FROM workflows WHERE id = $1`, [
        Number(c.workflow_id),
      ]);
      if (!rows[0]) throw new PermanentError(`workflow ${c.workflow_id} does not exist`);
      // Moves the volunteer onto the workflow: the project preference's settings.workflow_id, as project owners set it.
      await client.query(
        `INSERT INTO project_preferences (user_id, project_id, settings, updated_at) VALUES ($1, $2, jsonb_build_object('workflow_id', $3::text), now())
         ON CONFLICT (user_id, project_id) DO UPDATE
           SET settings = project_preferences.settings || jsonb_build_object('workflow_id', $3::text), updated_at = now()`,
        [a.user_id, rows[0].project_id, String(c.workflow_id)],
      );
      return;
    }
    default:
      throw new PermanentError(`unknown effect ${a.effect_type}`);
  }
}

/**
 * Performs the pending retire_subject actions among `actionIds` together, in the caller's transaction: the
 * actions locked, each workflow's subjects retired by one statement (its rows locked in subject order, as the
 * create statements lock them, so the two never deadlock), the actions marked completed by one more. A
 * batch that retires 40 subjects costs three statements instead of 240. Returns the ids it performed; the
 * others (other effects, or all of them when this fails: it is undone under a savepoint) are left to
 * performAction one by one.
 */
export async function performRetirements(client: EngineTx, actionIds: number[]): Promise<Set<number>> {
  const done = new Set<number>();
  if (!actionIds.length) return done;
  const mark = client.retired.mark();
  await client.query("SAVEPOINT engine_retire");
  try {
    const { rows } = await client.query<ActionRow>(
      `SELECT * FROM engine_actions a WHERE id = ANY($1::int[]) AND status = 'pending' AND effect_type = 'retire_subject'
        AND subject_id IS NOT NULL AND ${RETIREMENT_IN_SCOPE_SQL} ORDER BY id FOR UPDATE OF a`,
      [actionIds],
    );
    const groups = new Map<string, { workflowId: number; reason: ReturnType<typeof parseRetirementReason>; subjects: number[] }>();
    for (const a of rows) {
      let reason: ReturnType<typeof parseRetirementReason>;
      try {
        reason = parseRetirementReason(retirementReason(a.config.reason as Parameters<typeof retirementReason>[0]));
      } catch {
        continue; // performAction records its failure
      }
      const key = `${a.workflow_id}:${reason}`;
      if (!groups.has(key)) groups.set(key, { workflowId: a.workflow_id, reason, subjects: [] });
      groups.get(key)!.subjects.push(a.subject_id!);
      done.add(a.id);
    }
    for (const g of [...groups.values()].sort((x, y) => x.workflowId - y.workflowId))
      await retireSubjects(client, g.workflowId, g.subjects, g.reason, client.retired.note);
    const retired = [...groups.values()];
    if (done.size) {
      await client.query(
        `UPDATE engine_actions SET status = 'completed', attempts = attempts + 1, error = NULL, performed_at = now(), updated_at = now()
          WHERE id = ANY($1::int[])`,
        [[...done]],
      );
    }
    await client.query("RELEASE SAVEPOINT engine_retire");
    for (const g of retired) noteRetired(client, g.workflowId, g.subjects);
    return done;
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT engine_retire");
    client.retired.rollback(mark);
    return new Set();
  }
}

async function lockPending(client: Sql, actionId: number): Promise<ActionRow | null> {
  const { rows } = await client.query<ActionRow>(`SELECT * FROM engine_actions WHERE id = $1 FOR UPDATE`, [actionId]);
  return rows[0]?.status === "pending" ? rows[0] : null;
}

async function markCompleted(client: Sql, id: number) {
  await client.query(
    `UPDATE engine_actions SET status = 'completed', attempts = attempts + 1, error = NULL, performed_at = now(), updated_at = now() WHERE id = $1`,
    [id],
  );
}

/** Records a failed attempt: failed for good after the last attempt or a permanent error, else left pending and rethrown (retried with backoff). */
async function recordFailure(tx: TxRunner, a: ActionRow, err: unknown): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  const final = err instanceof PermanentError || err instanceof AppError || a.attempts + 1 >= maxExternalAttempts();
  await tx((client) =>
    client.query(
      `UPDATE engine_actions SET attempts = attempts + 1, error = $2, status = $3, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [a.id, message.slice(0, 2000), final ? "failed" : "pending"],
    ),
  );
  if (!final) throw err;
}

export async function performAction(tx: TxRunner, actionId: number): Promise<void> {
  // In-process effects are performed in the transaction that locks the action; external ones outside any.
  let external: ActionRow | null = null;
  let failure: { action: ActionRow; err: unknown } | null = null;
  try {
    await tx(async (client) => {
      const a = await lockPending(client, actionId);
      if (!a) return;
      if (a.effect_type === "external_effect") {
        external = a;
        return;
      }
      try {
        await performInProcess(client, a);
      } catch (err) {
        failure = { action: a, err };
        throw err; // roll the effect back before its failure is recorded
      }
      await markCompleted(client, actionId);
    });
  } catch (err) {
    if (!failure) throw err;
  }
  const failed = failure as { action: ActionRow; err: unknown } | null;
  if (failed) return recordFailure(tx, failed.action, failed.err);
  const action = external as ActionRow | null;
  if (!action) return;
  const target = action.topic === "subject" ? { subject_id: action.subject_id } : { user_id: action.user_id };
  const onlyKey = action.config.reducer_key as string | undefined;
  const reductions = await tx(async (client) => {
    const rows = await loadReductions(client, action.topic, action.workflow_id, (action.subject_id ?? action.user_id)!);
    return reductionContext(onlyKey ? rows.filter((r) => r.reducer_key === onlyKey) : rows);
  });
  try {
    await postExternal(
      action.config.url as string,
      { action_id: action.id, workflow_id: action.workflow_id, ...target, reductions },
      { headers: { "idempotency-key": `action-${action.id}` } },
    );
  } catch (err) {
    return recordFailure(tx, action, err);
  }
  await tx(async (client) => {
    if (await lockPending(client, actionId)) await markCompleted(client, actionId);
  });
}
