import crypto from "node:crypto";
import { pool } from "@/lib/db";

// Signed-in browser sessions as rows (user_sessions): a session cookie (Auth.js for our pages, the official
// clients' quorum_session) names its row and is good while the row exists. Cookies are signed, so the row
// is what makes a session revocable: signing out deletes it, and a password change or reset, disabling
// the account and a ban delete the user's sessions and revoke their OAuth grants (endAccess).

/** Starts a session for the user; answers its id (put it in the cookie). */
export async function startSession(userId: number): Promise<string> {
  const id = crypto.randomBytes(24).toString("base64url");
  await pool().query(`INSERT INTO user_sessions (id, user_id) VALUES ($1, $2)`, [id, userId]);
  return id;
}

export async function endSession(id: string): Promise<void> {
  await pool().query(`DELETE FROM user_sessions WHERE id = $1`, [id]);
}

/** Whether the session is still on, for this user. */
export async function sessionAlive(id: string, userId: number): Promise<boolean> {
  const { rowCount } = await pool().query(`SELECT 1 FROM user_sessions WHERE id = $1 AND user_id = $2`, [id, userId]);
  return rowCount === 1;
}

/** What a change of the account keeps: the session or the token that made it. */
export interface KeepAccess {
  sessionId?: string;
  grantId?: string;
}

/** The statement that ends every session and revokes every token of the user but what `keep` names (run it in a transaction of one's own). */
export function endAccessStatement(userId: number, keep: KeepAccess = {}): [string, unknown[]] {
  return [
    `WITH s AS (DELETE FROM user_sessions WHERE user_id = $1 AND id <> $2)
     UPDATE oauth_grants SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND id <> $3`,
    [userId, keep.sessionId ?? "", keep.grantId ?? ""],
  ];
}

/** Ends every session and revokes every token of the user, but what `keep` names. */
export async function endAccess(userId: number, keep: KeepAccess = {}): Promise<void> {
  await pool().query(...endAccessStatement(userId, keep));
}
