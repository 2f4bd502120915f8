import { unprocessable } from "@/lib/errors";
import { parseCountParam, parseIdValue } from "@/lib/text/params";

// Paging of the engine API's lists, which answer plain JSON arrays (as the established engine does). Keyset:
// `last_id=N` answers the records after id N in id order (`last_id=0` from the first), at most
// `page_size` (default 20, at most 100). When another page follows, the answer's `Link` header names it
// (`<...?last_id=M&page_size=S>; rel="next"`, M the page's last id), so a walk follows rel="next" to its end:
// each page an index range scan after M, never an offset and never a count.

export const ENGINE_PAGE_SIZE = 20;
export const ENGINE_MAX_PAGE_SIZE = 100;

/** page_size: default 20, clamped at 100; 0 or junk is a 422. */
export function enginePageSize(url: URL): number {
  return parseCountParam(url.searchParams.get("page_size"), "page_size", { fallback: ENGINE_PAGE_SIZE, clampAbove: ENGINE_MAX_PAGE_SIZE });
}

/** last_id: null when absent, 0 to start a walk, else an id (anything else is a 422). */
export function engineLastId(url: URL): number | null {
  const raw = url.searchParams.get("last_id");
  if (raw === null) return null;
  if (raw.trim() === "0") return 0;
  if (raw.trim() === "") throw unprocessable("last_id must be 0 or a positive integer id");
  return parseIdValue(raw, "last_id");
}

/** True when the request asks for a page (last_id or page_size given) rather than the whole list. */
export function asksForPage(url: URL): boolean {
  return url.searchParams.has("last_id") || url.searchParams.has("page_size");
}

/**
 * A page read with one row more than its size: its rows and, when another page follows, the Link header
 * naming it (`next` sets the parameters that lead there; page is dropped unless `next` sets it).
 */
export function enginePage<T>(
  url: URL,
  found: T[],
  size: number,
  next: (last: T) => Record<string, string>,
): { rows: T[]; headers: Record<string, string> } {
  if (found.length <= size) return { rows: found, headers: {} };
  const rows = found.slice(0, size);
  const q = new URLSearchParams(url.searchParams);
  q.delete("page");
  for (const [name, value] of Object.entries(next(rows[rows.length - 1]))) q.set(name, value);
  q.set("page_size", String(size));
  return { rows, headers: { Link: `<${url.pathname}?${q.toString()}>; rel="next"` } };
}
