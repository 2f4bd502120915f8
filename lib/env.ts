import path from "node:path";
import { z } from "zod";
import { trimTrailingSlashes } from "./text/trim-slashes";

// Validated configuration, read once. Everything has a default so `npm start` needs no setup.
const ZEnv = z.object({
  DATABASE_URL: z.string().optional(),
  // A streaming replica of DATABASE_URL for reads that tolerate a little lag (lib/db/index.ts readDb), and how
  // far behind it may be before those reads go to the primary too.
  DATABASE_REPLICA_URL: z.string().optional(),
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().nonnegative().optional(),
  DATA_DIR: z.string().default(".data"),
  PORT: z.coerce.number().int().positive().default(3000),
  PUBLIC_CLIENT_ID: z.string().min(1).default("535759b966935c297be11913acee7a9ca17c025f9f15520e7504728e71110a27"),
  ADMIN_LOGIN: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  ADMIN_EMAIL: z.string().optional(),
  JWT_PRIVATE_KEY: z.string().optional(),
  JWT_PUBLIC_KEY: z.string().optional(),
  AUTH_SECRET: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  // Where the site's footer links for its source code (an http(s) address); a malformed one is left out.
  SOURCE_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/)
    .optional()
    .catch(undefined),
  // Read where they are used: lib/http/cors.ts, lib/mail/mailer.ts.
  CORS_ORIGINS: z.string().optional(),
  PUBLIC_CLIENT_REDIRECT_URIS: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().optional(),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  UPLOAD_URL_TTL: z.coerce.number().int().positive().default(3600),
  // Subjects an account may have uploaded unless an admin set its own subject_limit (lib/domain/subject-limit.ts).
  USER_SUBJECT_LIMIT: z.coerce.number().int().nonnegative().max(2_147_483_647).default(10_000),
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
});

export type Env = z.infer<typeof ZEnv>;

/** Read on every call (cheap), so tests and scripts that change process.env see the change. */
export function env(): Env {
  return ZEnv.parse(process.env);
}

export function dataDir(): string {
  return path.resolve(env().DATA_DIR);
}

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it when it starts the embedded database)");
  return url;
}

/** DATABASE_REPLICA_URL, or undefined when unset or blank (then every read goes to the primary). */
export function databaseReplicaUrl(): string | undefined {
  return process.env.DATABASE_REPLICA_URL?.trim() || undefined;
}

/** The origin clients reach this server at, for absolute URLs stored in records (uploaded files). */
export function publicBaseUrl(e: Env = env()): string {
  return trimTrailingSlashes(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
}

/** SOURCE_URL: where the footer's "Source code" link goes, or null (the footer then names no address). */
export function sourceUrl(e: Env = env()): string | null {
  return e.SOURCE_URL ?? null;
}

/** CORS_ORIGINS: a comma- or space-separated list of origins (scheme://host[:port]) trusted with cookies. */
export function parseOrigins(value: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (value ?? "").split(/[\s,]+/)) {
    if (!part) continue;
    try {
      out.add(new URL(part).origin);
    } catch {
      // A malformed entry trusts nothing (start-up logs the configuration; see lib/env.ts).
    }
  }
  return out;
}
