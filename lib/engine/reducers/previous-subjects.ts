import type { ExtractRecord, SubjectMetadata } from "../types";

/**
 * The subject ids in `#previous_subject_ids`: an array (of numbers or digit strings), a JSON array string
 * (`"[1, 2]"`, subject metadata is stored as strings), a comma-separated string or one id. Invalid entries
 * are dropped; duplicates removed; order kept.
 */
export function previousSubjectIds(metadata: SubjectMetadata | null | undefined): number[] {
  let raw: unknown = metadata?.["#previous_subject_ids"];
  if (typeof raw === "string") {
    const s = raw.trim();
    if (s.startsWith("[")) {
      try {
        raw = JSON.parse(s);
      } catch {
        return [];
      }
    } else raw = s === "" ? [] : s.split(",");
  }
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const ids: number[] = [];
  for (const v of list) {
    const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (Number.isSafeInteger(n) && n > 0 && !ids.includes(n)) ids.push(n);
  }
  return ids;
}

/**
 * A subject's extracts together with those of its `#previous_subject_ids` subjects (loaded by the caller),
 * each extract once. Filters and reducers then treat them as one subject's history.
 */
export function mergePreviousSubjectExtracts(own: readonly ExtractRecord[], previous: readonly ExtractRecord[]): ExtractRecord[] {
  const seen = new Set<number>();
  const out: ExtractRecord[] = [];
  for (const e of [...own, ...previous]) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
  }
  return out;
}
