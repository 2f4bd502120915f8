import { pool } from "@/lib/db";
import { AppError } from "@/lib/errors";

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
  /** Password checks from one address, failed or not, whichever accounts they name. */
  signInPerAddress: { name: "sign-in:address", max: 60, windowSeconds: 15 * 60 },
  /** Failures of one client secret from one address, and from one address across applications. */
  clientSecretFailuresPerAddress: { name: "client-secret-failures:address", max: 30, windowSeconds: 15 * 60 },
  signUpPerAddress: { name: "sign-up:address", max: 20, windowSeconds: 60 * 60 },
  /** Sign-ups from one address answered "email has already been taken" (lib/domain/register-user.ts signUp). */
  signUpTakenEmailPerAddress: { name: "sign-up-taken-email:address", max: 5, windowSeconds: 60 * 60 },
  resetPerAccount: { name: "password-reset:account", max: 5, windowSeconds: 60 * 60 },
  resetPerAddress: { name: "password-reset:address", max: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

/**
 * The lock on guessing one secret (an account's password, an application's client secret). Failures are
 * counted per (secret, address): one address that fails `pair.max` times is locked out of that secret for
 * the window, and no one else is. Distributed guessing is held by a much higher ceiling over all addresses
 * (`whole`): past it, only an address that has not failed on this secret in the window may still try, so
 * the owner signing in from their usual place gets in while each guessing address is down to its last try.
 */
export interface FailureLock {
  pair: Limit;
  whole: Limit;
}

export const LOCKS = {
  signIn: {
    pair: { name: "sign-in-failures:account-address", max: 10, windowSeconds: 15 * 60 },
    whole: { name: "sign-in-failures:account", max: 100, windowSeconds: 60 * 60 },
  },
  clientSecret: {
    pair: { name: "client-secret-failures:client-address", max: 10, windowSeconds: 15 * 60 },
    whole: { name: "client-secret-failures:client", max: 100, windowSeconds: 60 * 60 },
  },
} satisfies Record<string, FailureLock>;

const factor = () => {
  const f = Number(process.env.RATE_LIMIT_FACTOR ?? 1);
  return Number.isFinite(f) && f >= 0 ? f : 1;
};

function tooMany(_limit: Limit, retryAfter: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfter));
  return new AppError("rate_limited", `Too many attempts; try again in ${seconds} s`, undefined, { "Retry-After": String(seconds) });
}

/** Counts one attempt under `limit` for `subject` and answers the window's count (0: not counted). */
async function recordAttempt(limit: Limit, subject: string): Promise<{ count: number; retry: number; max: number }> {
  const max = Math.floor(limit.max * factor());
  if (max <= 0) return { count: 0, retry: 0, max };
  const { rows } = await pool().query<{ count: number; retry: number }>(
    `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.count + 1 END,
       window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
     RETURNING count, extract(epoch FROM r.window_start + make_interval(secs => $2) - now())::float8 AS retry`,
    [`${limit.name}:${subject.toLowerCase()}`, limit.windowSeconds],
  );
  return { ...rows[0], max };
}

/** Counts one attempt under `limit` for `subject`; a 429 once the window holds more than the limit. */
export async function countAttempt(limit: Limit, subject: string | null): Promise<void> {
  if (!subject) return;
  const { count, retry, max } = await recordAttempt(limit, subject);
  if (max > 0 && count > max) throw tooMany(limit, retry);
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

// The address part of a lock's key: an in-process call (no address) is one address of its own.
const pairKey = (secret: string, address: string | null) => `${secret}|${address ?? "in-process"}`;

/** Refuses (429) a try at `secret` from `address` under `lock` (see FailureLock), without counting it. */
export async function checkFailureLock(lock: FailureLock, secret: string, address: string | null): Promise<void> {
  const pairMax = Math.floor(lock.pair.max * factor());
  const wholeMax = Math.floor(lock.whole.max * factor());
  if (pairMax <= 0) return;
  const { rows } = await pool().query<{ key: string; count: number; retry: number }>(
    `SELECT key, count, extract(epoch FROM window_start + make_interval(secs => w.secs) - now())::float8 AS retry
     FROM rate_limits JOIN (VALUES ($1::text, $2::int), ($3::text, $4::int)) AS w(k, secs) ON key = w.k
     WHERE window_start > now() - make_interval(secs => w.secs)`,
    [
      `${lock.pair.name}:${pairKey(secret, address).toLowerCase()}`,
      lock.pair.windowSeconds,
      `${lock.whole.name}:${secret.toLowerCase()}`,
      lock.whole.windowSeconds,
    ],
  );
  const pair = rows.find((r) => r.key.startsWith(`${lock.pair.name}:`));
  const whole = rows.find((r) => r.key.startsWith(`${lock.whole.name}:`));
  if (pair && pair.count >= pairMax) throw tooMany(lock.pair, pair.retry);
  if (whole && wholeMax > 0 && whole.count >= wholeMax && pair) throw tooMany(lock.whole, whole.retry);
}

/** Counts a failed try at `secret` from `address` under `lock`. */
export async function recordFailure(lock: FailureLock, secret: string, address: string | null): Promise<void> {
  if (Math.floor(lock.pair.max * factor()) <= 0) return;
  await recordAttempt(lock.pair, pairKey(secret, address));
  await recordAttempt(lock.whole, secret);
}

/** A success from `address` forgets that address's failures at `secret` (the ceiling over all stays). */
export async function clearFailures(lock: FailureLock, secret: string, address: string | null): Promise<void> {
  await pool().query(`DELETE FROM rate_limits WHERE key = $1`, [`${lock.pair.name}:${pairKey(secret, address).toLowerCase()}`]);
}

/** Drops windows that ended long ago (called with the count folder's housekeeping). */
export async function pruneRateLimits(): Promise<void> {
  await pool().query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`);
}
