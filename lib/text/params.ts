import { notFound, unprocessable } from "@/lib/errors";

// Ids, counts and flags named in a client's text (a path, a query parameter, a body's field), parsed the one
// way every layer takes them: anything out of range is a 404 (a record that cannot exist) or a 422.

const MAX_ID = 2 ** 31 - 1;

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

/** A path segment as typed (percent-decoded once); null when its escapes are malformed ("%E0%A4%A"). */
export function decodedSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
