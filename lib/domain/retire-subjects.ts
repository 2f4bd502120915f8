import type { Sql } from "@/lib/db/sql";
import { unprocessable } from "@/lib/errors";

export const RETIREMENT_REASONS = ["classification_count", "flagged", "nothing_here", "consensus", "other", "human"] as const;
export type RetirementReason = (typeof RETIREMENT_REASONS)[number];

/** Validates a reason from a client or the decision engine; `blank` is stored as `nothing_here`. */
export function parseRetirementReason(raw: unknown, fallback: RetirementReason = "other"): RetirementReason {
  if (raw === undefined || raw === null || raw === "") return fallback;
  if (raw === "blank") return "nothing_here";
  if (typeof raw === "string" && (RETIREMENT_REASONS as readonly string[]).includes(raw)) return raw as RetirementReason;
  throw unprocessable(`retirement_reason must be one of ${RETIREMENT_REASONS.join(", ")} (or blank)`);
}

// The one place subjects are retired and unretired, and the retired counters moved: the API's retirement
// routes, a classification that reaches the workflow's retirement count, and the decision engine.

/**
 * SQL moving the retired-subject counters of workflow $1 and its project by the amount in `n` (a column
 * of the relation `from`), skipped when it is 0.
 */
const moveCounters = (from: string, n: string) => `
  wf AS (UPDATE workflows SET retired_set_member_subjects_count = retired_set_member_subjects_count + ${n} FROM ${from}
    WHERE workflows.id = $1 AND ${n} <> 0 RETURNING workflows.project_id, ${n} AS n),
  pr AS (UPDATE projects SET retired_subjects_count = retired_subjects_count + wf.n FROM wf WHERE projects.id = wf.project_id)`;

/** Moves the retired-subject counters of a workflow and its project by n (in the caller's transaction). */
export async function bumpRetiredCounters(client: Sql, workflowId: number, n: number): Promise<void> {
  if (!n) return;
  await client.query(`WITH amount AS (SELECT $2::int AS n), ${moveCounters("amount", "amount.n")} SELECT 1`, [workflowId, n]);
}

/** The subjects' rows in the workflow, retired now unless they were (subjects in id order: the order every writer locks them in). */
const RETIRE = `r AS (INSERT INTO subject_workflow_statuses (subject_id, workflow_id, retired_at, retirement_reason, updated_at)
  SELECT s, $1, now(), $3, now() FROM unnest($2::int[]) AS s
  ON CONFLICT (subject_id, workflow_id) DO UPDATE SET retired_at = now(), retirement_reason = $3, updated_at = now()
    WHERE subject_workflow_statuses.retired_at IS NULL
  RETURNING subject_id)`;

/**
 * Retires subjects in a workflow (already-retired ones keep their first reason); returns the ids retired
 * now. The counters move by exactly that many, whatever runs concurrently: in the same statement, or
 * through `count` (the engine notes them and moves them once, at the end of its transaction).
 */
export async function retireSubjects(
  client: Sql,
  workflowId: number,
  subjectIds: number[],
  reason: RetirementReason,
  count?: (workflowId: number, n: number) => void,
): Promise<number[]> {
  const ids = [...new Set(subjectIds)].sort((a, b) => a - b);
  const { rows } = await client.query<{ subject_id: number }>(
    count
      ? `WITH ${RETIRE} SELECT subject_id FROM r`
      : `WITH ${RETIRE}, total AS (SELECT count(*)::int AS n FROM r), ${moveCounters("total", "total.n")} SELECT subject_id FROM r`,
    [workflowId, ids, reason],
  );
  count?.(workflowId, rows.length);
  return rows.map((r) => r.subject_id);
}

export async function unretireSubjects(client: Sql, workflowId: number, subjectIds: number[]): Promise<number[]> {
  const { rows } = await client.query<{ subject_id: number }>(
    `UPDATE subject_workflow_statuses SET retired_at = NULL, retirement_reason = NULL, updated_at = now()
     WHERE workflow_id = $1 AND subject_id = ANY($2::int[]) AND retired_at IS NOT NULL RETURNING subject_id`,
    [workflowId, [...new Set(subjectIds)]],
  );
  await bumpRetiredCounters(client, workflowId, -rows.length);
  return rows.map((r) => r.subject_id);
}
