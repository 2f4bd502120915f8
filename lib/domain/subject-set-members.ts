import { unprocessable } from "@/lib/errors";
import type { Tx } from "@/lib/db/types";

// Set membership changes keep subject_sets.set_member_subjects_count exact: the count moves by the rows
// actually inserted or deleted, in the same transaction.

/** Adds subjects of the set's project to the set (already-members are skipped); 422 for foreign subjects. */
export async function addSubjectsToSet(tx: Tx, set: { id: number; projectId: number }, subjectIds: number[]): Promise<number> {
  const ids = [...new Set(subjectIds)];
  if (!ids.length) return 0;
  const foreign = await tx.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM unnest($1::int[]) AS want(id) WHERE NOT EXISTS (SELECT 1 FROM subjects s WHERE s.id = want.id AND s.project_id = $2)`,
    ids,
    set.projectId,
  );
  if (foreign[0].n > 0) throw unprocessable("subjects must exist and belong to the subject set's project");
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO set_member_subjects (subject_set_id, subject_id, priority)
     SELECT $1, s.id, CASE WHEN s.metadata->>'#priority' ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (s.metadata->>'#priority')::float8 END
     FROM subjects s WHERE s.id = ANY($2::int[])
     ON CONFLICT (subject_set_id, subject_id) DO NOTHING`,
    set.id,
    ids,
  );
  if (inserted)
    await tx.$executeRawUnsafe(
      `UPDATE subject_sets SET set_member_subjects_count = set_member_subjects_count + $2, updated_at = now() WHERE id = $1`,
      set.id,
      inserted,
    );
  return inserted;
}

export async function removeSubjectsFromSet(tx: Tx, setId: number, subjectIds: number[]): Promise<number> {
  const deleted = await tx.$executeRawUnsafe(
    `DELETE FROM set_member_subjects WHERE subject_set_id = $1 AND subject_id = ANY($2::int[])`,
    setId,
    subjectIds,
  );
  if (deleted)
    await tx.$executeRawUnsafe(
      `UPDATE subject_sets SET set_member_subjects_count = set_member_subjects_count - $2, updated_at = now() WHERE id = $1`,
      setId,
      deleted,
    );
  return deleted;
}

/**
 * Copies a set of another project into `projectId` (linking a foreign set to a project duplicates it):
 * the copy lists the same subjects.
 */
export async function duplicateSubjectSet(tx: Tx, setId: number, projectId: number): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO subject_sets (project_id, display_name, metadata, set_member_subjects_count, updated_at)
     SELECT $2, display_name || ' (copy)', metadata, set_member_subjects_count, now() FROM subject_sets WHERE id = $1 RETURNING id`,
    setId,
    projectId,
  );
  const copy = rows[0].id;
  await tx.$executeRawUnsafe(
    `INSERT INTO set_member_subjects (subject_set_id, subject_id, priority, random) SELECT $2, subject_id, priority, random
      FROM set_member_subjects WHERE subject_set_id = $1`,
    setId,
    copy,
  );
  return copy;
}
