import { ZodError } from "zod";
import { AppError, HTTP_STATUS } from "@/lib/errors";
import { logError } from "@/lib/log/throttled";

export const JSONAPI_TYPE = "application/vnd.api+json; version=1";

/**
 * JSON bodies smaller than this go out uncompressed. Next's compression middleware gzips every route
 * handler's answer a client accepts gzip for, whatever its size (the body is streamed, so it never sees a
 * length): a zlib stream per answer, a large share of a cheap route's CPU (docs/benchmarks.md). An
 * answer this size and its headers fit the first TCP congestion window (10 segments, about 14 KB), so
 * compressing it saves no round trip, only bytes: a few KB on a queue page, beside the subject images it
 * points at.
 * `Cache-Control: no-transform` is the signal the middleware (and any proxy) honours; larger answers
 * (long lists, exports) are still gzipped.
 */
export const UNCOMPRESSED_JSON_BYTES = 12 * 1024;

/** The answer's Cache-Control with no-transform added. */
function noTransform(cacheControl: string | null): string {
  if (!cacheControl) return "no-transform";
  return /(^|,)\s*no-transform\s*(,|$)/i.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`;
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}, contentType = "application/json; charset=utf-8"): Response {
  const h = new Headers(headers);
  h.set("content-type", contentType);
  if (status === 204 || status === 304) return new Response(null, { status, headers: h });
  const text = JSON.stringify(body);
  if (text.length < UNCOMPRESSED_JSON_BYTES && Buffer.byteLength(text) < UNCOMPRESSED_JSON_BYTES)
    h.set("cache-control", noTransform(h.get("cache-control")));
  return new Response(text, { status, headers: h });
}

function zodMessage(err: ZodError): string {
  return err.issues
    .map((i) => {
      const where = i.path.length ? i.path.join(".") : "body";
      if (i.code === "unrecognized_keys") return `${where}: unknown key(s) ${i.keys.map((k) => `'${k}'`).join(", ")}`;
      return `${where}: ${i.message}`;
    })
    .join("; ");
}

interface PgLikeError {
  code?: string;
  meta?: {
    target?: unknown;
    modelName?: string;
    driverAdapterError?: { cause?: { kind?: string; originalCode?: string; constraint?: { fields?: string[] } } };
  };
}

/** untranslatable_character, character_not_in_repertoire. */
const UNSTORABLE_CODES = new Set(["22P05", "22021"]);
/**
 * numeric_value_out_of_range, invalid_text_representation: a number past its column's type (ids are
 * int4) or not a number at all. Every parameter is checked before it reaches the database; this is the net
 * behind those checks, so a number one of them misses is still the client's 422, not a 500 (and is logged).
 */
const OUT_OF_RANGE_CODES = new Set(["22003", "22P02"]);
/**
 * Prisma's refusal of a number that does not fit its field (a 64-bit skip, an INT4 id), matched where its
 * first "Unable to fit " stands (sticky): the message quotes the request, and an unanchored `.*` would be
 * tried again from every other "Unable to fit " in it.
 */
const PRISMA_OUT_OF_RANGE = /Unable to fit (?:integer )?value .* into an? (?:64-bit signed integer|INT4)/y;
function prismaOutOfRange(message: string): boolean {
  PRISMA_OUT_OF_RANGE.lastIndex = Math.max(0, message.indexOf("Unable to fit "));
  return PRISMA_OUT_OF_RANGE.test(message);
}

// Connection-level failures: refused or reset connections, a server shutting down or starting up, too many
// clients, a pool timeout, and Prisma's "cannot reach" errors. These are an outage, not a bug: 503.
const OUTAGE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "53300",
  "P1001",
  "P1002",
  "P1017",
]);

export function databaseUnavailable(err: unknown): boolean {
  for (
    let e = err as
        | {
            code?: string;
            message?: string;
            cause?: unknown;
            meta?: { driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } };
          }
        | undefined,
      depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code && OUTAGE_CODES.has(e.code)) return true;
    const adapter = e.meta?.driverAdapterError?.cause;
    if (adapter?.originalCode && OUTAGE_CODES.has(adapter.originalCode)) return true;
    if (adapter?.kind === "DatabaseNotReachable" || adapter?.kind === "ConnectionClosed" || adapter?.kind === "SocketTimeout") return true;
    if (
      typeof e.message === "string" &&
      (/timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED/i.test(e.message) ||
        /terminating connection due to administrator command|the database system is (starting up|shutting down)/i.test(e.message))
    )
      return true;
  }
  return false;
}

/** Maps any thrown value to a response with `{"errors":[{"message"}]}`; unexpected errors are logged, never leaked. */
export function errorResponse(err: unknown, contentType?: string): Response {
  const body = (message: string, extra?: Record<string, unknown>) => ({ ...extra, errors: [{ message }] });
  if (err instanceof AppError) return json(body(err.message, err.extra), HTTP_STATUS[err.code], err.headers ?? {}, contentType);
  if (err instanceof ZodError) return json(body(zodMessage(err)), 422, {}, contentType);
  const e = err as PgLikeError;
  if (e?.code === "P2002") {
    const fields =
      e.meta?.driverAdapterError?.cause?.constraint?.fields ?? (Array.isArray(e.meta?.target) ? (e.meta!.target as string[]) : []);
    return json(body(`${fields.length ? fields.join(", ") : "record"} has already been taken`), 400, {}, contentType);
  }
  if (e?.code === "P2025") return json(body("Not Found"), 404, {}, contentType);
  // Text PostgreSQL cannot store (JSON's \u0000 in jsonb, a NUL in text): the client's input, not a bug.
  if (UNSTORABLE_CODES.has(String(e?.code)) || UNSTORABLE_CODES.has(String(e?.meta?.driverAdapterError?.cause?.originalCode))) {
    return json(body("The request holds a character that cannot be stored (such as \\u0000)"), 422, {}, contentType);
  }
  if (
    OUT_OF_RANGE_CODES.has(String(e?.code)) ||
    OUT_OF_RANGE_CODES.has(String(e?.meta?.driverAdapterError?.cause?.originalCode)) ||
    (err instanceof Error && err.name === "PrismaClientValidationError" && prismaOutOfRange(err.message))
  ) {
    logError("422-range", "[422] a number out of range reached the database:", (err as Error).message);
    return json(body("A number in the request is out of range"), 422, {}, contentType);
  }
  // A serialization failure or a deadlock PostgreSQL broke: the write was undone, and trying it again works.
  if (e?.code === "P2034" || e?.code === "40001" || e?.code === "40P01")
    return json(body("Conflicting concurrent write; retry"), 409, {}, contentType);
  if (databaseUnavailable(err)) {
    logError("503", "[503] database unavailable:", (err as Error).message);
    return json(body("The database is unavailable; try again shortly"), 503, { "Retry-After": "5" }, contentType);
  }
  console.error("[500]", err);
  return json(body("Internal server error"), 500, {}, contentType);
}
