import { parseIdList } from "@/lib/text/params";

// Helpers for ResourceDef.countScope: a counter answers a list only when the request's filters are
// exactly the ones its scope is made of, each naming one record.

/** True when every filter given is one of `allowed` (and at least one is given when `required`). */
export function filtersWithin(filters: Record<string, string>, allowed: string[], required = true): boolean {
  const names = Object.keys(filters);
  return (!required || names.length > 0) && names.every((n) => allowed.includes(n));
}

/** The one id a filter's value names ("5", or "5,5"); null when it names several or none. */
export function oneId(value: string | undefined, what: string): number | null {
  if (value === undefined) return null;
  const ids = new Set(parseIdList(value, what));
  return ids.size === 1 ? [...ids][0] : null;
}
