import { callerActor, type Caller } from "@/lib/auth/actor";
import { grantSql } from "@/lib/auth/tokens";
import { pool } from "@/lib/db";
import type { Sql } from "@/lib/db/sql";
import { notFound } from "@/lib/errors";
import { rolesAllow } from "@/lib/policies/project-policy";
import type { SubjectLocations } from "@/lib/text/subject-locations";

export interface QueuedSubject {
  id: number;
  projectId: number;
  metadata: Record<string, unknown>;
  locations: SubjectLocations;
  externalId: string | null;
  subjectSetIds: number[];
  createdAt: Date;
  updatedAt: Date;
  selectedAt: Date;
  retired: boolean;
  alreadySeen: boolean;
  finishedWorkflow: boolean;
  userHasFinishedWorkflow: boolean;
  selectionState: "normal" | "internal_fallback";
}

interface SetChance {
  id: number;
  size: number;
  weight: number;
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/**
 * Each linked set's chance: proportional to its size by default; the workflow's
 * configuration.subject_set_chances replaces that (0 excludes a set); the user's project preference
 * designator.subject_set_chances[workflow] overrides per set for that user.
 */
export function setChances(
  sets: { id: number; size: number }[],
  workflowChances: Record<string, unknown> | undefined,
  userChances: Record<string, unknown> | undefined,
): SetChance[] {
  return sets
    .map((s) => {
      const weight = num(userChances?.[s.id]) ?? num(workflowChances?.[s.id]) ?? s.size;
      return { ...s, weight };
    })
    .filter((s) => s.weight > 0 && s.size > 0);
}

/** A weighted random order of sets: the first is the draw, the rest are the fallbacks in draw order. */
export function drawSetOrder(sets: SetChance[], random = Math.random): SetChance[] {
  const remaining = [...sets];
  const order: SetChance[] = [];
  while (remaining.length) {
    const total = remaining.reduce((t, s) => t + s.weight, 0);
    let r = random() * total;
    const i = Math.max(
      0,
      remaining.findIndex((s) => (r -= s.weight) < 0),
    );
    order.push(...remaining.splice(i === -1 ? remaining.length - 1 : i, 1));
  }
  return order;
}

/**
 * Training subjects, as the established designator serves them: `configuration.training_set_ids` name the
 * workflow's training sets; a volunteer who has seen n subjects of the workflow is served from them with
 * chance `training_chances[n]`, else `training_default_chance` (0 when unset), and otherwise from the other
 * sets. Returns the candidate sets of this request (all of them when there are no training sets, or when
 * the draw's side has none).
 */
export function trainingCandidates<S extends { id: number }>(
  sets: S[],
  configuration: Record<string, unknown> | undefined,
  seenCount: number,
  random = Math.random,
): { sets: S[]; training: boolean | null } {
  const ids = Array.isArray(configuration?.training_set_ids)
    ? (configuration!.training_set_ids as unknown[]).map(Number).filter(Number.isInteger)
    : [];
  if (!ids.length) return { sets, training: null };
  const chances = Array.isArray(configuration?.training_chances) ? (configuration!.training_chances as unknown[]) : [];
  const chance = num(chances[seenCount]) ?? num(configuration?.training_default_chance) ?? 0;
  const training = random() < Math.min(1, chance);
  const side = sets.filter((s) => ids.includes(s.id) === training);
  return side.length ? { sets: side, training } : { sets, training: null };
}

/** Whether a workflow's configuration names training sets (then the queue needs the volunteer's seen count). */
const hasTrainingSets = (configuration: Record<string, unknown> | undefined) =>
  Array.isArray(configuration?.training_set_ids) && (configuration!.training_set_ids as unknown[]).length > 0;

const UNRETIRED = `NOT EXISTS (SELECT 1 FROM subject_workflow_statuses sws WHERE sws.subject_id = sms.subject_id
  AND sws.workflow_id = $2 AND sws.retired_at IS NOT NULL)`;
// A plain NOT EXISTS (an index probe per candidate row). Anonymous volunteers have no seen history, so their
// queries leave it out: written as "$3 IS NULL OR NOT EXISTS ...", Postgres hashed the volunteer's whole seen
// history on every call (about 6 ms for 20,000 seen subjects) instead of probing ten rows.
const UNSEEN = `NOT EXISTS (SELECT 1 FROM user_seen_subjects us WHERE us.user_id = $3 AND us.workflow_id = $2 AND us.subject_id = sms.subject_id)`;

/** Up to `limit` unseen, unretired subjects of one set: from a random point in its random order (or in priority order), wrapping around. */
async function pickFromSet(
  client: Sql,
  setId: number,
  workflowId: number,
  userId: number | null,
  limit: number,
  prioritized: boolean,
  exclude: number[],
): Promise<number[]> {
  const seen = userId === null ? "AND $3::int IS NULL" : `AND ${UNSEEN}`;
  const notPicked = `AND NOT (sms.subject_id = ANY($4::int[]))`;
  if (prioritized) {
    const { rows } = await client.query<{ subject_id: number }>(
      `SELECT sms.subject_id FROM set_member_subjects sms WHERE sms.subject_set_id = $1 AND ${UNRETIRED} ${seen} ${notPicked}
       ORDER BY sms.priority NULLS LAST, sms.subject_id LIMIT $5`,
      [setId, workflowId, userId, exclude, limit],
    );
    return rows.map((r) => r.subject_id);
  }
  const start = Math.random();
  const out: number[] = [];
  for (const [cmp, order] of [
    [">=", "ASC"],
    ["<", "ASC"],
  ] as const) {
    const { rows } = await client.query<{ subject_id: number }>(
      `SELECT sms.subject_id FROM set_member_subjects sms WHERE sms.subject_set_id = $1 AND sms.random ${cmp} $6 AND ${UNRETIRED} ${seen} ${notPicked}
       ORDER BY sms.random ${order} LIMIT $5`,
      [setId, workflowId, userId, [...exclude, ...out], limit - out.length, start],
    );
    out.push(...rows.map((r) => r.subject_id));
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * GET /api/subjects/queued: subjects for a volunteer to classify next. Unseen and unretired first, drawn
 * from the workflow's sets by their chances; when none are left, seen (then retired) subjects are served
 * with a fallback selection_state, so a volunteer is never stuck. Anonymous volunteers get random
 * unretired subjects.
 */
export async function queueSubjects(
  caller: Caller,
  workflowId: number,
  opts: { limit: number; subjectSetId?: number },
): Promise<QueuedSubject[]> {
  const client = pool();
  const userId = caller.actor ? (caller.actor.user?.id ?? null) : caller.claims.userId;
  // One query: a bearer token's grant (checked here rather than by a query of its own), the workflow and
  // its visibility, its sets with sizes, and the user's set chances.
  const { rows: found } = await client.query(
    `WITH tg AS (${grantSql("$3")} AND g.user_id = $2)
     SELECT (SELECT row_to_json(tg) FROM tg) AS token_grant, wf.* FROM (SELECT 1) one LEFT JOIN (
     SELECT w.id, w.configuration, w.prioritized, p.private, coalesce(pr.roles, '{}') AS roles,
            coalesce((SELECT json_agg(json_build_object('id', ss.id, 'size', ss.set_member_subjects_count) ORDER BY ss.id)
                      FROM workflow_subject_sets wss JOIN subject_sets ss ON ss.id = wss.subject_set_id WHERE wss.workflow_id = w.id), '[]') AS sets,
            (SELECT pp.settings->'designator'->'subject_set_chances'->(w.id::text) FROM project_preferences pp WHERE pp.user_id = $2
              AND pp.project_id = w.project_id) AS chances
     FROM workflows w JOIN projects p ON p.id = w.project_id
     LEFT JOIN project_roles pr ON pr.project_id = p.id AND pr.user_id = $2
     WHERE w.id = $1) wf ON true`,
    [workflowId, userId, caller.claims?.grantId ?? null],
  );
  // The token first: with a revoked one nothing else is answered.
  const actor = callerActor(caller, found[0].token_grant);
  const workflow = found[0].id === null ? null : found[0];
  if (!workflow || (workflow.private && !actor.user?.admin && !rolesAllow(workflow.roles, "show")))
    throw notFound(`Could not find workflows with id='${workflowId}'`);
  const sets: { id: number; size: number }[] = workflow.sets;
  if (!sets.length) throw notFound(`Workflow ${workflowId} has no linked subject sets`);
  let candidates = sets;
  if (opts.subjectSetId !== undefined) {
    candidates = sets.filter((s) => s.id === opts.subjectSetId);
    if (!candidates.length) throw notFound(`Subject set ${opts.subjectSetId} is not linked to workflow ${workflowId}`);
  }
  if (opts.subjectSetId === undefined && hasTrainingSets(workflow.configuration)) {
    const seen =
      userId === null
        ? 0
        : (
            await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM user_seen_subjects WHERE user_id = $1 AND workflow_id = $2`, [
              userId,
              workflowId,
            ])
          ).rows[0].n;
    candidates = trainingCandidates(candidates, workflow.configuration, seen).sets;
  }
  const chances = setChances(candidates, workflow.configuration?.subject_set_chances, workflow.chances ?? undefined);
  const ids: number[] = [];
  for (const set of drawSetOrder(chances)) {
    ids.push(...(await pickFromSet(client, set.id, workflowId, userId, opts.limit - ids.length, workflow.prioritized, ids)));
    if (ids.length >= opts.limit) break;
  }
  let state: QueuedSubject["selectionState"] = "normal";
  if (!ids.length) {
    // Nothing unseen and unretired is left for this volunteer: serve what there is.
    state = "internal_fallback";
    const setIds = candidates.map((s) => s.id);
    const { rows } = await client.query<{ subject_id: number }>(
      `SELECT sms.subject_id FROM set_member_subjects sms WHERE sms.subject_set_id = ANY($1::int[])
       ORDER BY (EXISTS (SELECT 1 FROM subject_workflow_statuses sws WHERE sws.subject_id = sms.subject_id AND sws.workflow_id = $2
         AND sws.retired_at IS NOT NULL)), sms.random
       LIMIT $3`,
      [setIds, workflowId, opts.limit],
    );
    ids.push(...new Set(rows.map((r) => r.subject_id)));
  }
  return describeSubjects(client, workflowId, userId, ids, state);
}

async function describeSubjects(
  client: Sql,
  workflowId: number,
  userId: number | null,
  ids: number[],
  state: QueuedSubject["selectionState"],
): Promise<QueuedSubject[]> {
  if (!ids.length) return [];
  const { rows } = await client.query(
    `SELECT s.id, s.project_id, s.metadata, s.locations, s.external_id, s.created_at, s.updated_at,
            (SELECT array_agg(sms.subject_set_id ORDER BY sms.subject_set_id) FROM set_member_subjects sms WHERE sms.subject_id = s.id) AS set_ids,
            (sws.retired_at IS NOT NULL) AS retired,
            ($3::int IS NOT NULL AND EXISTS (SELECT 1 FROM user_seen_subjects us WHERE us.user_id = $3 AND us.workflow_id = $2
              AND us.subject_id = s.id)) AS seen
     FROM subjects s LEFT JOIN subject_workflow_statuses sws ON sws.subject_id = s.id AND sws.workflow_id = $2
     WHERE s.id = ANY($1::int[])`,
    [ids, workflowId, userId],
  );
  // Serving unseen, unretired subjects proves neither the workflow nor the volunteer is finished.
  const finished = state === "normal" ? { workflow: false, user: false } : await workflowFinished(client, workflowId, userId);
  const now = new Date();
  const byId = new Map(rows.map((r) => [r.id as number, r]));
  return ids
    .map((id) => byId.get(id))
    .filter(Boolean)
    .map((r) => ({
      id: r.id,
      projectId: r.project_id,
      metadata: r.metadata,
      locations: r.locations,
      externalId: r.external_id,
      subjectSetIds: r.set_ids ?? [],
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      selectedAt: now,
      retired: r.retired,
      alreadySeen: r.seen,
      finishedWorkflow: finished.workflow,
      userHasFinishedWorkflow: finished.user,
      selectionState: state,
    }));
}

/** Whether every subject is retired, and whether the user has seen every unretired one (cheap probes). */
async function workflowFinished(client: Sql, workflowId: number, userId: number | null) {
  const { rows } = await client.query<{ workflow: boolean; user: boolean }>(
    `SELECT NOT EXISTS (${unretiredProbe("")}) AS workflow,
            ($2::int IS NOT NULL
              AND NOT EXISTS (${unretiredProbe(`AND NOT EXISTS (SELECT 1 FROM user_seen_subjects us
                WHERE us.user_id = $2 AND us.workflow_id = $1 AND us.subject_id = sms.subject_id)`)})) AS user`,
    [workflowId, userId],
  );
  return rows[0];
}

function unretiredProbe(extra: string): string {
  return `SELECT 1 FROM workflow_subject_sets wss JOIN set_member_subjects sms ON sms.subject_set_id = wss.subject_set_id
          WHERE wss.workflow_id = $1
            AND NOT EXISTS (SELECT 1 FROM subject_workflow_statuses sws WHERE sws.subject_id = sms.subject_id AND sws.workflow_id = $1
              AND sws.retired_at IS NOT NULL)
            ${extra} LIMIT 1`;
}
