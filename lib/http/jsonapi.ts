import crypto from "node:crypto";
import type { Actor } from "@/lib/auth/actor";
import type { BaseRow, LoadedLinked, ResourceDef, SerializedRecord, Truncations } from "@/lib/http/resource-def";
import { AppError, unprocessable } from "@/lib/errors";
import type { CountSource } from "./list-count";
import { parseCountParam } from "@/lib/text/params";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Paging {
  page: number;
  pageSize: number;
}

/**
 * The highest page asked for: its offset, (page - 1) × 100, stays a safe integer and well inside the
 * 64-bit OFFSET the database takes (a page of 10^20 was a 500); no list has this many pages.
 */
export const MAX_PAGE = 2 ** 31 - 1;

/**
 * page defaults to 1, page_size to 20; page_size above 100 is clamped (as the established platform does,
 * however large), 0 or junk is 422; a page beyond MAX_PAGE is 422.
 */
export function parsePaging(url: URL, defaultSize = DEFAULT_PAGE_SIZE): Paging {
  return {
    page: parseCountParam(url.searchParams.get("page"), "page", { fallback: 1, max: MAX_PAGE }),
    pageSize: parseCountParam(url.searchParams.get("page_size"), "page_size", { fallback: defaultSize, clampAbove: MAX_PAGE_SIZE }),
  };
}

/** `sort=a,-b` → Prisma orderBy; unknown fields are 422. The id breaks ties so pages are stable. */
export function parseSort(url: URL, def: ResourceDef<never>): Record<string, "asc" | "desc">[] {
  const raw = url.searchParams.get("sort") || def.defaultSort || "id";
  const order: Record<string, "asc" | "desc">[] = [];
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const desc = part.startsWith("-");
    const field = desc ? part.slice(1) : part;
    // Own keys only: `constructor`, `__proto__` or `toString` must not find Object.prototype's.
    const column = Object.hasOwn(def.sortable, field) ? def.sortable[field] : undefined;
    if (!column) throw unprocessable(`Cannot sort ${def.type} by '${field}'; sortable fields: ${Object.keys(def.sortable).join(", ")}`);
    order.push({ [column]: desc ? "desc" : "asc" });
  }
  if (!order.some((o) => "id" in o)) order.push({ id: order[0] && Object.values(order[0])[0] === "desc" ? "desc" : "asc" });
  return order;
}

export function parseInclude(url: URL, def: ResourceDef<never>): string[] {
  const raw = url.searchParams.get("include");
  if (!raw) return [];
  const names = [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const allowed = Object.keys(def.includes ?? {});
  for (const n of names) {
    if (!allowed.includes(n)) throw unprocessable(`Cannot include '${n}' with ${def.type}; includable: ${allowed.join(", ") || "none"}`);
  }
  return names;
}

/** Resource-level link templates, keyed `<type>.<link>`. */
export function linkTemplates(def: ResourceDef<never>): Record<string, { href: string; type: string }> {
  return Object.fromEntries(Object.entries(def.linkTemplates).map(([name, t]) => [`${def.type}.${name}`, t]));
}

/**
 * The most linked records one include answers per primary record, and in the whole answer. What a caller
 * can make an include load is bounded by these whatever the records hold (a collection may hold 30,000
 * subjects); the rest is read through the link's own list, named in meta.truncated (see TruncationNotes).
 */
export const MAX_LINKED_PER_RECORD = 100;
export const MAX_LINKED_PER_INCLUDE = 1000;

interface Truncated {
  records: Set<number>;
  per_record: number;
  per_response?: number;
  href?: string;
}

/**
 * What one answer left out, as its meta.truncated: `linked.<include>` for an include that answered only
 * part of some records' linked records, `<type>.<link>` for records whose link list holds only part of its
 * ids; each with the records concerned, the caps, and the href template of the list that pages the rest.
 */
export class TruncationNotes implements Truncations {
  private readonly entries = new Map<string, Truncated>();

  private note(key: string, recordIds: Iterable<number>, caps: Omit<Truncated, "records">) {
    const entry = this.entries.get(key) ?? { records: new Set<number>(), ...caps };
    for (const id of recordIds) entry.records.add(id);
    if (entry.records.size) this.entries.set(key, entry);
  }

  linkList(key: string, recordId: number, perRecord: number, href: string): void {
    this.note(key, [recordId], { per_record: perRecord, href });
  }

  included(name: string, recordIds: Iterable<number>, href: string | undefined): void {
    this.note(`linked.${name}`, recordIds, { per_record: MAX_LINKED_PER_RECORD, per_response: MAX_LINKED_PER_INCLUDE, href });
  }

  /** The meta entry, or undefined when nothing was left out. */
  meta(): Record<string, unknown> | undefined {
    if (!this.entries.size) return undefined;
    return Object.fromEntries(
      [...this.entries].map(([key, { records, ...caps }]) => [key, { records: [...records].sort((a, b) => a - b).map(String), ...caps }]),
    );
  }
}

/**
 * `include` → top-level `linked`, keyed by linked type; each linked record points back at a parent. Each
 * include answers at most MAX_LINKED_PER_RECORD linked records per primary record and MAX_LINKED_PER_INCLUDE
 * in all (in the loader's order); the records whose lists were cut are noted in `notes`.
 */
export async function buildLinked<R extends BaseRow>(
  def: ResourceDef<R>,
  rows: R[],
  include: string[],
  actor: Actor,
  notes: TruncationNotes,
) {
  if (!include.length || !rows.length) return undefined;
  const linked: Record<string, SerializedRecord[]> = {};
  const seen = new Map<string, Set<string>>();
  for (const name of include) {
    const inc = def.includes![name];
    const answer = await inc.load(rows, actor, {
      perRecord: MAX_LINKED_PER_RECORD,
      perResponse: MAX_LINKED_PER_INCLUDE,
      truncations: notes,
    });
    const loaded: LoadedLinked[] = Array.isArray(answer) ? answer : answer.linked;
    const cut = new Set<number>(Array.isArray(answer) ? [] : answer.cut);
    const list = (linked[inc.type] ??= []);
    const ids = seen.get(inc.type) ?? new Set(list.map((r) => r.id));
    seen.set(inc.type, ids);
    const perParent = new Map<number, number>();
    let answered = 0;
    for (const { record, parentIds } of loaded) {
      if (ids.has(record.id)) continue;
      if (answered >= MAX_LINKED_PER_INCLUDE || parentIds.every((p) => (perParent.get(p) ?? 0) >= MAX_LINKED_PER_RECORD)) {
        for (const p of parentIds) cut.add(p);
        continue;
      }
      for (const p of parentIds) perParent.set(p, (perParent.get(p) ?? 0) + 1);
      answered++;
      ids.add(record.id);
      const parent = parentIds[0];
      list.push({ ...record, links: { ...record.links, linked: { href: `/${def.type}/${parent}`, id: String(parent), type: def.type } } });
    }
    const template = Object.hasOwn(def.linkTemplates, name) ? def.linkTemplates[name].href : undefined;
    notes.included(name, cut, template);
  }
  return linked;
}

/**
 * A list's paging meta. `count` is exact unless `source` says it comes from a counter or is the planner's
 * estimate (meta.<type>.count_source, lib/http/list-count.ts); page_count follows it. When the page says
 * whether a row follows it (`more`, from fetching page_size + 1), next_page follows that rather than the
 * count, so an estimate neither ends paging early nor lets it run past the last row.
 */
export function pageMeta(
  type: string,
  url: URL,
  paging: Paging,
  count: number,
  include: string[],
  seen?: { more: boolean; source: CountSource },
) {
  const more = seen?.more;
  const pageCount = Math.max(1, Math.ceil(count / paging.pageSize), more ? paging.page + 1 : 0);
  const href = (page: number) => {
    const q = new URLSearchParams(url.searchParams);
    q.delete("http_cache");
    q.set("page", String(page));
    q.set("page_size", String(paging.pageSize));
    return `${url.pathname.replace(/^\/api/, "")}?${q.toString()}`;
  };
  const prev = paging.page > 1 ? Math.min(paging.page - 1, pageCount) : null;
  const next = (more ?? paging.page < pageCount) ? paging.page + 1 : null;
  return {
    [type]: {
      page: paging.page,
      page_size: paging.pageSize,
      count,
      count_source: seen?.source ?? "exact",
      include,
      page_count: pageCount,
      previous_page: prev,
      next_page: next,
      first_href: href(1),
      previous_href: prev === null ? null : href(prev),
      next_href: next === null ? null : href(next),
      last_href: href(pageCount),
    },
  };
}

/** A record's version tag: changes whenever the record's updated_at does (every edit through the API). */
export function etagFor(type: string, row: BaseRow): string {
  const hash = crypto.createHash("md5").update(`${type}:${row.id}:${row.updatedAt.getTime()}`).digest("hex");
  return `"${hash}"`;
}

function tagList(header: string): string[] {
  return header
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .filter(Boolean);
}

/** If-Match on PUT/DELETE: missing → 428, stale → 412; weak tags compare by their value. */
export function checkIfMatch(req: Request, etag: string): void {
  const header = req.headers.get("if-match");
  if (!header) throw new AppError("precondition_required", "If-Match header is required for this request");
  const tags = tagList(header);
  if (!tags.includes("*") && !tags.includes(etag))
    throw new AppError("precondition_failed", "If-Match does not match the record's current ETag");
}

export function ifNoneMatchHits(req: Request, etag: string): boolean {
  const header = req.headers.get("if-none-match");
  return !!header && (tagList(header).includes(etag) || header.trim() === "*");
}

export function recordHeaders(type: string, row: BaseRow): Record<string, string> {
  return { ETag: etagFor(type, row), "Last-Modified": row.updatedAt.toUTCString() };
}
