// Case-insensitive filters on user-given strings for Prisma where clauses. Prisma writes `mode:
// "insensitive"` as ILIKE and passes the value through as a pattern, so `_`, `%` and `\` in what a client
// sends would match other records (or, for a trailing `\`, make PostgreSQL refuse the pattern). Every such
// filter goes through these helpers, which escape the value so the pattern matches only itself.
// Logins and emails are citext columns and compare with plain equality instead (an index lookup).

/** The value with LIKE's wildcards and its escape character escaped (PostgreSQL's default escape is `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Equal to `value`, ignoring case; nothing in `value` is a wildcard. */
export const equalsIgnoringCase = (value: string) => ({ equals: escapeLike(value), mode: "insensitive" as const });

/** Contains `value`, ignoring case; nothing in `value` is a wildcard. */
export const containsIgnoringCase = (value: string) => ({ contains: escapeLike(value), mode: "insensitive" as const });
