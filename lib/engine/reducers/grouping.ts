import type { ExtractRecord, SubjectMetadata } from "../types";
import { filterExtracts, sortExtracts } from "./filters";
import { dataField, splitFieldRef } from "./reducer";
import type { ReducerSelection } from "./schemas";

export const DEFAULT_SUBGROUP = "_default";
export const MISSING_SUBGROUP = "_missing";

/** Thrown by grouping with `if_missing: "error"` when a classification lacks the grouping field. */
export class GroupingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GroupingError";
  }
}

/** A grouping value as a subgroup name: strings as they are, other values as JSON. */
export function subgroupName(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Splits extracts into subgroups by the value of `grouping.field_name` (`<extractor_key>.<field>`). The value
 * is read from the classification's extract of that extractor, and every extract of the classification goes
 * to that subgroup (so a consensus over `q` can be grouped by `f.name`). `context` is where grouping values are
 * looked up; pass the unfiltered extracts when `extracts` has been filtered by extractor key. A classification
 * without the field (no such extract, or a null/absent field) is dropped (`ignore`, the default), reduced in
 * subgroup `_missing` (`group_missing`), or makes grouping throw GroupingError (`error`).
 * Without grouping everything is in subgroup `_default`, even when there are no extracts. Subgroups are in
 * first-seen order; extracts keep their order.
 */
export function groupExtracts(
  config: ReducerSelection,
  extracts: readonly ExtractRecord[],
  context: readonly ExtractRecord[] = extracts,
): Map<string, ExtractRecord[]> {
  const groups = new Map<string, ExtractRecord[]>();
  if (!config.grouping) {
    groups.set(DEFAULT_SUBGROUP, [...extracts]);
    return groups;
  }
  const { extractorKey, field } = splitFieldRef(config.grouping.field_name);
  const ifMissing = config.grouping.if_missing ?? "ignore";
  const valueByClassification = new Map<number, unknown>();
  for (const e of [...context, ...extracts]) {
    if (e.extractorKey !== extractorKey || valueByClassification.has(e.classificationId)) continue;
    const v = dataField(e.data, field);
    if (v !== undefined && v !== null) valueByClassification.set(e.classificationId, v);
  }
  for (const e of extracts) {
    let name: string;
    if (valueByClassification.has(e.classificationId)) name = subgroupName(valueByClassification.get(e.classificationId));
    else if (ifMissing === "group_missing") name = MISSING_SUBGROUP;
    else if (ifMissing === "error")
      throw new GroupingError(`classification ${e.classificationId} has no '${config.grouping.field_name}' to group by`);
    else continue;
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name)!.push(e);
  }
  return groups;
}

/**
 * What each subgroup's reduction sees, as the established engine does it: group all extracts first (so the
 * grouping extractor is visible even when the filters exclude it), then filter each subgroup. Subgroups the
 * filters empty are kept (with no extracts) so callers can re-reduce them.
 */
export function selectExtracts(
  config: ReducerSelection,
  extracts: readonly ExtractRecord[],
  subjectMetadataById: ReadonlyMap<number, SubjectMetadata> = new Map(),
): Map<string, ExtractRecord[]> {
  const grouped = groupExtracts(config, sortExtracts(extracts));
  const out = new Map<string, ExtractRecord[]>();
  for (const [name, group] of grouped) out.set(name, filterExtracts(config, group, subjectMetadataById));
  return out;
}
