import type { ExtractRecord, SubjectMetadata } from "../types";
import { timeOf } from "../types";
import type { ReducerSelection } from "./schemas";

// The reducer filters, applied in the contract's order to one subject's (or user's) extracts:
// repeated classifications → extractor keys → empty extracts → training behaviour → from/to.

/** Extracts in classification order: classification time, then classification id, then extract id. */
export function sortExtracts(extracts: readonly ExtractRecord[]): ExtractRecord[] {
  const t = (e: ExtractRecord) => {
    const ms = timeOf(e.classificationAt);
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return [...extracts].sort((a, b) => t(a) - t(b) || a.classificationId - b.classificationId || a.id - b.id);
}

/** Distinct classification ids in the order of the (sorted) extracts. */
export function classificationOrder(extracts: readonly ExtractRecord[]): number[] {
  return [...new Set(extracts.map((e) => e.classificationId))];
}

/** `#training_subject` true, or the string "true" (subject metadata values are stored as strings). */
export function isTrainingSubject(metadata: SubjectMetadata | undefined): boolean {
  const v = metadata?.["#training_subject"];
  return v === true || (typeof v === "string" && v.trim().toLowerCase() === "true");
}

function keepRepeated(extracts: ExtractRecord[], mode: "keep_first" | "keep_last" | "keep_all"): ExtractRecord[] {
  if (mode === "keep_all") return extracts;
  // Per (subject, user): the classification to keep. Anonymous classifications cannot be told apart: all kept.
  const chosen = new Map<string, number>();
  for (const e of extracts) {
    if (e.userId === null || e.userId === undefined) continue;
    const key = `${e.subjectId}:${e.userId}`;
    if (mode === "keep_last" || !chosen.has(key)) chosen.set(key, e.classificationId);
  }
  return extracts.filter(
    (e) => e.userId === null || e.userId === undefined || chosen.get(`${e.subjectId}:${e.userId}`) === e.classificationId,
  );
}

function isEmptyData(data: ExtractRecord["data"]): boolean {
  return data === null || data === undefined || (typeof data === "object" && Object.keys(data).length === 0);
}

/** Resolves an inclusive index (negative counts from the end) against a list of length n. */
function resolveIndex(i: number, n: number): number {
  return i < 0 ? n + i : i;
}

function extractorKeyList(keys: unknown): string[] {
  if (typeof keys === "string") return keys === "" ? [] : [keys];
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
}

/**
 * The extracts a reducer sees, in classification order. Pure; tolerates configs without defaults filled.
 * `subjectMetadataById` gives each subject's metadata for the training filter (absent = not training).
 */
export function filterExtracts(
  config: ReducerSelection,
  extracts: readonly ExtractRecord[],
  subjectMetadataById: ReadonlyMap<number, SubjectMetadata> = new Map(),
): ExtractRecord[] {
  const f = config.filters ?? {};
  let out = sortExtracts(extracts);
  out = keepRepeated(out, f.repeated_classifications ?? "keep_first");
  const keys = extractorKeyList(f.extractor_keys);
  if (keys.length) out = out.filter((e) => keys.includes(e.extractorKey));
  if ((f.empty_extracts ?? "keep_all") === "ignore_empty") out = out.filter((e) => !isEmptyData(e.data));
  const training = f.training_behavior ?? "ignore_training";
  if (training !== "ignore_training") {
    const wantTraining = training === "training_only";
    out = out.filter((e) => isTrainingSubject(subjectMetadataById.get(e.subjectId)) === wantTraining);
  }
  const from = f.from ?? 0;
  const to = f.to ?? -1;
  if (from !== 0 || to !== -1) {
    const order = classificationOrder(out);
    const start = Math.max(0, resolveIndex(from, order.length));
    const end = Math.min(order.length - 1, resolveIndex(to, order.length));
    const kept = new Set(start <= end ? order.slice(start, end + 1) : []);
    out = out.filter((e) => kept.has(e.classificationId));
  }
  return out;
}
