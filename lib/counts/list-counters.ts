import { readPool } from "@/lib/db";

// Exact sizes of list scopes from the counters the database keeps, for meta count_source "counter"
// (lib/http/list-count.ts): each costs a few index probes, whatever the scope's size.
//
// Completed classifications are counted once each through classification_count_outbox: the create (or
// the edit that completes one) appends a row in its own transaction, and the folder moves rows into the
// project and workflow counters and the volunteers' daily rollups, deleting them in the same statement
// (lib/domain/fold-classification-counts.ts). So at any snapshot a scope's completed classifications are
// its folded counter plus its rows still in the outbox; one statement reads both in one snapshot. The
// outbox is read whole (no index: it holds the last second's creates while the folder runs). Completed
// classifications are never deleted nor made incomplete again; incomplete ones are counted from their own
// partial indexes (few: the classifier saves complete ones).

/** A project's classifications, complete and incomplete; null when there is no such project. */
export async function projectClassificationsCount(projectId: number): Promise<number | null> {
  const { rows } = await readPool().query<{ n: string }>(
    `SELECT p.classifications_count
          + (SELECT count(*) FROM classification_count_outbox o WHERE o.project_id = p.id)
          + (SELECT count(*) FROM classifications c WHERE c.project_id = p.id AND NOT c.completed) AS n
     FROM projects p WHERE p.id = $1`,
    [projectId],
  );
  return rows[0] ? Number(rows[0].n) : null;
}

/** A workflow's classifications, complete and incomplete, with its project; null when there is no such workflow. */
export async function workflowClassificationsCount(workflowId: number): Promise<{ projectId: number; count: number } | null> {
  const { rows } = await readPool().query<{ project_id: number; n: string }>(
    `SELECT w.project_id, w.classifications_count
          + (SELECT count(*) FROM classification_count_outbox o WHERE o.workflow_id = w.id)
          + (SELECT count(*) FROM classifications c WHERE c.workflow_id = w.id AND NOT c.completed) AS n
     FROM workflows w WHERE w.id = $1`,
    [workflowId],
  );
  return rows[0] ? { projectId: rows[0].project_id, count: Number(rows[0].n) } : null;
}

/** A volunteer's completed classifications (of one project, or all), from their daily rollups and the outbox. */
export async function volunteerCompletedClassificationsCount(userId: number, projectId: number | null): Promise<number> {
  const { rows } =
    projectId === null
      ? await readPool().query<{ n: string }>(
          `SELECT (SELECT coalesce(sum(count), 0) FROM user_project_daily_counts WHERE user_id = $1)
                + (SELECT count(*) FROM classification_count_outbox WHERE user_id = $1) AS n`,
          [userId],
        )
      : await readPool().query<{ n: string }>(
          `SELECT (SELECT coalesce(sum(count), 0) FROM user_project_daily_counts WHERE user_id = $1 AND project_id = $2)
                + (SELECT count(*) FROM classification_count_outbox WHERE user_id = $1 AND project_id = $2) AS n`,
          [userId, projectId],
        );
  return Number(rows[0].n);
}

/**
 * A volunteer's completed classifications by project, most first: their project preferences' counts
 * (activity_count, which the folder moves) plus their rows still in the outbox, in one snapshot.
 */
export async function volunteerProjectCounts(userId: number): Promise<{ projectId: number; count: number }[]> {
  const { rows } = await readPool().query<{ project_id: number; n: number }>(
    `SELECT project_id, sum(n)::int AS n FROM (
       SELECT project_id, activity_count AS n FROM project_preferences WHERE user_id = $1 AND activity_count > 0
       UNION ALL SELECT project_id, count(*)::int FROM classification_count_outbox WHERE user_id = $1 GROUP BY 1
     ) t GROUP BY 1 ORDER BY 2 DESC, 1`,
    [userId],
  );
  return rows.map((r) => ({ projectId: r.project_id, count: r.n }));
}
