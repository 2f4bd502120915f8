import { ApiError, notFound, unprocessable } from "./api-error";
import { MAX_JSON_DEPTH, parseBoundedJson } from "./json-depth";

/** The largest request body the API reads (JSON and form bodies; uploads and imports have their own limits). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_ID = 2 ** 31 - 1;

const tooLarge = (max: number) => new ApiError(413, `Request body is too large (the limit is ${max} bytes)`);

/**
 * The request body's bytes, refused with a 413 as early as possible: before reading when Content-Length
 * is over `max`, else as soon as the streamed body passes it (the rest is never read or buffered).
 */
export async function readBodyBytes(req: Request, max = MAX_BODY_BYTES): Promise<Uint8Array> {
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > max) throw tooLarge(max);
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The request body as UTF-8 text, within `max` bytes (413 beyond). */
export async function readBodyText(req: Request, max = MAX_BODY_BYTES): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req, max));
}

/** Parses JSON text from a request: malformed, or nested deeper than MAX_JSON_DEPTH levels → 400. */
export function parseJsonText(text: string): unknown {
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed.value;
  if (parsed.reason === "too_deep") throw new ApiError(400, `JSON nested too deeply in request body (more than ${MAX_JSON_DEPTH} levels)`);
  throw new ApiError(400, "Malformed JSON in request body");
}

/** Parses a JSON body: malformed → 400, missing → 422, larger than 5 MiB → 413. Drops clients' `http_cache`. */
export async function readJsonBody(req: Request): Promise<Record<string, unknown>> {
  const text = await readBodyText(req);
  if (!text.trim()) throw unprocessable("A JSON request body is required");
  const parsed = parseJsonText(text);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw unprocessable("The request body must be a JSON object");
  const body = parsed as Record<string, unknown>;
  delete body.http_cache;
  return body;
}

/** Parses a form-encoded or JSON body into a flat record (for /oauth/token and similar). */
export async function readFormOrJson(req: Request): Promise<Record<string, unknown>> {
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(await readBodyText(req)));
  }
  if (type.includes("multipart/form-data")) {
    const bytes = await readBodyBytes(req);
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } }).formData();
    } catch {
      throw new ApiError(400, "Malformed multipart form body");
    }
    return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
  }
  return readJsonBody(req);
}

export function isIdString(raw: string): boolean {
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= MAX_ID;
}

/** A record id from the path: anything but a positive integer is a record that cannot exist (404). */
export function parsePathId(raw: string | undefined, type: string): number {
  if (!raw || !isIdString(raw)) throw notFound(`Could not find ${type} with id='${raw ?? ""}'`);
  return Number(raw);
}

/** An id in a body or query (string or number on the wire): anything else → 422. */
export function parseIdValue(raw: unknown, what: string): number {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!isIdString(s)) throw unprocessable(`${what} must be a positive integer id`);
  return Number(s);
}

export function parseIdList(raw: string, what: string): number[] {
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.length) throw unprocessable(`${what} must be one id or comma-separated ids`);
  return parts.map((p) => parseIdValue(p, what));
}

/**
 * A whole-number query parameter (page, page_size): absent or empty → `fallback`; above `clampAbove` →
 * clampAbove (page sizes, as the established platform clamps them); anything but digits, below `min` or
 * above `max` → 422, so no number reaches the database out of its range.
 */
export function parseCountParam(
  raw: string | null,
  what: string,
  opts: { fallback: number; min?: number; max?: number; clampAbove?: number },
): number {
  if (raw === null || raw.trim() === "") return opts.fallback;
  const min = opts.min ?? 1;
  const max = opts.max ?? 2 ** 31 - 1;
  if (!/^\d+$/.test(raw.trim())) throw unprocessable(`${what} must be a whole number from ${min}`);
  const n = Number(raw);
  if (opts.clampAbove !== undefined && n > opts.clampAbove) return opts.clampAbove;
  if (n < min || n > max) throw unprocessable(`${what} must be a whole number from ${min} to ${max}`);
  return n;
}

export function parseBooleanParam(raw: string, what: string): boolean {
  const v = raw.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw unprocessable(`${what} must be true or false`);
}
