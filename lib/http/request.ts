import { ApiError, notFound, unprocessable } from "./api-error";

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_ID = 2 ** 31 - 1;

/** Parses a JSON body: malformed → 400, missing → 422, larger than 5 MiB → 413. Drops clients' `http_cache`. */
export async function readJsonBody(req: Request): Promise<Record<string, unknown>> {
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) throw new ApiError(413, "Request body is too large");
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new ApiError(413, "Request body is too large");
  if (!text.trim()) throw unprocessable("A JSON request body is required");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Malformed JSON in request body");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw unprocessable("The request body must be a JSON object");
  const body = parsed as Record<string, unknown>;
  delete body.http_cache;
  return body;
}

/** Parses a form-encoded or JSON body into a flat record (for /oauth/token and similar). */
export async function readFormOrJson(req: Request): Promise<Record<string, unknown>> {
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(await req.text()));
  }
  if (type.includes("multipart/form-data")) {
    const form = await req.formData();
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
  const parts = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (!parts.length) throw unprocessable(`${what} must be one id or comma-separated ids`);
  return parts.map((p) => parseIdValue(p, what));
}

export function parseBooleanParam(raw: string, what: string): boolean {
  const v = raw.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw unprocessable(`${what} must be true or false`);
}
