import { pool } from "@/lib/db";
import { ApiError } from "./api-error";

// Abuse limits on the account endpoints (sign-in, tokens, sign-up, password reset), counted in Postgres so
// every server process shares them: fixed windows per key, one upsert per counted attempt. A caller over a
// limit gets a 429 with Retry-After (seconds until its window ends). RATE_LIMIT_FACTOR multiplies every
// limit (the end-to-end suite, which registers many users from one address, runs with a large factor;
// 0 turns limits off).

export interface Limit {
  name: string;
  max: number;
  windowSeconds: number;
}

export const LIMITS = {
  /** Failed password checks of one account (sign-in page, /users/sign_in, the password grant). */
  signInFailuresPerAccount: { name: "sign-in-failures:account", max: 10, windowSeconds: 15 * 60 },
  /** Password checks from one address, failed or not. */
  signInPerAddress: { name: "sign-in:address", max: 60, windowSeconds: 15 * 60 },
  /** Failed client secrets of one application (client_credentials grant), and from one address. */
  clientSecretFailuresPerClient: { name: "client-secret-failures:client", max: 10, windowSeconds: 15 * 60 },
  clientSecretFailuresPerAddress: { name: "client-secret-failures:address", max: 30, windowSeconds: 15 * 60 },
  signUpPerAddress: { name: "sign-up:address", max: 20, windowSeconds: 60 * 60 },
  resetPerAccount: { name: "password-reset:account", max: 5, windowSeconds: 60 * 60 },
  resetPerAddress: { name: "password-reset:address", max: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

const factor = () => {
  const f = Number(process.env.RATE_LIMIT_FACTOR ?? 1);
  return Number.isFinite(f) && f >= 0 ? f : 1;
};

function tooMany(limit: Limit, retryAfter: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfter));
  return new ApiError(429, `Too many attempts; try again in ${seconds} s`, undefined, { "Retry-After": String(seconds) });
}

/** Counts one attempt under `limit` for `subject`; a 429 once the window holds more than the limit. */
export async function countAttempt(limit: Limit, subject: string | null): Promise<void> {
  const max = Math.floor(limit.max * factor());
  if (!subject || max <= 0) return;
  const { rows } = await pool().query<{ count: number; retry: number }>(
    `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.count + 1 END,
       window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
     RETURNING count, extract(epoch FROM r.window_start + make_interval(secs => $2) - now())::float8 AS retry`,
    [`${limit.name}:${subject.toLowerCase()}`, limit.windowSeconds],
  );
  if (rows[0].count > max) throw tooMany(limit, rows[0].retry);
}

/** Refuses (429) when `subject` is already over `limit`, without counting (failures are counted apart). */
export async function checkLimit(limit: Limit, subject: string | null): Promise<void> {
  const max = Math.floor(limit.max * factor());
  if (!subject || max <= 0) return;
  const { rows } = await pool().query<{ count: number; retry: number }>(
    `SELECT count, extract(epoch FROM window_start + make_interval(secs => $2) - now())::float8 AS retry
     FROM rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
    [`${limit.name}:${subject.toLowerCase()}`, limit.windowSeconds],
  );
  if (rows[0] && rows[0].count >= max) throw tooMany(limit, rows[0].retry);
}

/**
 * The caller's address as the proxy in front reports it (the first X-Forwarded-For entry, which Next's
 * server also sets from the socket when there is no proxy), or null when unknown (in-process calls).
 */
export function clientAddress(req: Request): string | null {
  return req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || req.headers.get("x-real-ip") || null;
}

/** Drops windows that ended long ago (called with the count folder's housekeeping). */
export async function pruneRateLimits(): Promise<void> {
  await pool().query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`);
}
