import type { Sql } from "@/lib/db/sql";
import { unprocessable } from "@/lib/http/api-error";

export const RETIREMENT_REASONS = ["classification_count", "flagged", "nothing_here", "consensus", "other", "human"] as const;
export type RetirementReason = (typeof RETIREMENT_REASONS)[number];

/** Validates a reason from a client or the decision engine; `blank` is stored as `nothing_here`. */
export function parseRetirementReason(raw: unknown, fallback: RetirementReason = "other"): RetirementReason {
  if (raw === undefined || raw === null || raw === "") return fallback;
  if (raw === "blank") return "nothing_here";
  if (typeof raw === "string" && (RETIREMENT_REASONS as readonly string[]).includes(raw)) return raw as RetirementReason;
  throw unprocessable(`retirement_reason must be one of ${RETIREMENT_REASONS.join(", ")} (or blank)`);
}

/** Moves the retired-subject counters of a workflow and its project by n (in the caller's transaction). */
export async function bumpRetiredCounters(client: Sql, workflowId: number, n: number): Promise<void> {
  if (!n) return;
  await client.query(
    `WITH w AS (UPDATE workflows SET retired_set_member_subjects_count = retired_set_member_subjects_count + $2 WHERE id = $1 RETURNING project_id)
     UPDATE projects SET retired_subjects_count = retired_subjects_count + $2 FROM w WHERE projects.id = w.project_id`,
    [workflowId, n],
  );
}

/**
 * Retires subjects in a workflow (already-retired ones keep their first reason); returns the ids retired
 * now. Counters move by exactly that many, whatever runs concurrently: at once, or through `count` (the
 * engine moves them once, at the end of its transaction).
 */
export async function retireSubjects(
  client: Sql,
  workflowId: number,
  subjectIds: number[],
  reason: RetirementReason,
  count: (client: Sql, workflowId: number, n: number) => Promise<void> = bumpRetiredCounters,
): Promise<number[]> {
  const { rows } = await client.query<{ subject_id: number }>(
    `INSERT INTO subject_workflow_statuses (subject_id, workflow_id, retired_at, retirement_reason, updated_at)
     SELECT s, $1, now(), $3, now() FROM unnest($2::int[]) AS s
     ON CONFLICT (subject_id, workflow_id) DO UPDATE SET retired_at = now(), retirement_reason = $3, updated_at = now()
       WHERE subject_workflow_statuses.retired_at IS NULL
     RETURNING subject_id`,
    [workflowId, [...new Set(subjectIds)].sort((a, b) => a - b), reason],
  );
  await count(client, workflowId, rows.length);
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
