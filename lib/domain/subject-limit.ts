import type { Sql } from "@/lib/db/sql";
import { env } from "@/lib/env";
import { type AppError, forbidden } from "@/lib/errors";

// Every account may have so many uploaded subjects at once, as on the established platform: its own
// subject_limit when an admin set one, else USER_SUBJECT_LIMIT (10,000 by default, the established
// platform's figure for project builders). What counts is uploaded_subjects_count: the subjects the account
// uploaded (created through the API or imported from a manifest) that still exist; deleting a subject, or
// its project, frees its place. Admins and upload_whitelist accounts are not limited.

/** The limit an account's uploads are held to (its own, else the configured default). */
export function subjectLimitOf(user: { subjectLimit: number | null }): number {
  return user.subjectLimit ?? env().USER_SUBJECT_LIMIT;
}

/**
 * Counts `n` new subjects of `userId` against the limit, in the caller's transaction, and answers whether
 * they fit. One statement: the UPDATE locks the user's row, so a concurrent upload waits and is checked
 * against the count this one left (two uploads never pass the limit together); a refused one changes nothing.
 */
export async function countUploads(sql: Sql, userId: number, n: number): Promise<boolean> {
  const { rows } = await sql.query(
    `UPDATE users SET uploaded_subjects_count = uploaded_subjects_count + $2
     WHERE id = $1 AND (admin OR upload_whitelist OR uploaded_subjects_count + $2 <= coalesce(subject_limit, $3))
     RETURNING id`,
    [userId, n, env().USER_SUBJECT_LIMIT],
  );
  return rows.length === 1;
}

/** Where `userId` stands ("uploaded 5 subjects of your limit of 5"), for a refusal's message; null when unlimited. */
export async function uploadStanding(sql: Sql, userId: number): Promise<{ uploaded: number; limit: number } | null> {
  const { rows } = await sql.query(
    `SELECT uploaded_subjects_count AS uploaded, coalesce(subject_limit, $2) AS limit, admin OR upload_whitelist AS unlimited
     FROM users WHERE id = $1`,
    [userId, env().USER_SUBJECT_LIMIT],
  );
  const row = rows[0] as { uploaded: number; limit: number; unlimited: boolean } | undefined;
  return row && !row.unlimited ? { uploaded: row.uploaded, limit: row.limit } : null;
}

/** The 403 of an upload past the uploader's limit (the established platform's LimitExceeded is a 403 too). */
export async function subjectLimitReached(sql: Sql, userId: number): Promise<AppError> {
  const standing = await uploadStanding(sql, userId);
  return forbidden(
    standing
      ? `You have uploaded ${standing.uploaded} subjects of your limit of ${standing.limit}; ask an admin to raise it`
      : "Your subject limit was reached",
  );
}

/** Frees the places of subjects about to be deleted (by id, or all of a project), for each uploader. */
export async function releaseUploads(sql: Sql, where: { subjectId: number } | { projectId: number }): Promise<void> {
  const [column, id] = "subjectId" in where ? ["id", where.subjectId] : ["project_id", where.projectId];
  await sql.query(
    `UPDATE users u SET uploaded_subjects_count = greatest(u.uploaded_subjects_count - s.n, 0)
     FROM (SELECT upload_user_id, count(*)::int AS n FROM subjects WHERE ${column} = $1 AND upload_user_id IS NOT NULL GROUP BY 1) s
     WHERE u.id = s.upload_user_id`,
    [id],
  );
}
