// How deeply JSON from outside may nest. V8's JSON.parse is iterative and takes any depth, but nearly
// everything after it recurses: JSON.stringify (Prisma's Json fields, pg's jsonb parameters, a re-sent
// body), zod, our own walks, PostgreSQL's jsonb parser. Past a few thousand levels the first of them to
// run out of stack threw a RangeError (a 500), so depth is refused where JSON enters, before any of them.

/**
 * Deepest nesting of arrays and objects any request body, stored JSON field or imported JSON may have.
 * Real documents (workflow tasks, engine rule conditions, subject metadata) nest a few dozen levels; the
 * established platform reads bodies with Ruby's JSON parser, whose default refuses more than 100.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Whether JSON text nests arrays and objects more than `limit` levels deep. One pass over the text,
 * skipping string contents (brackets there are text); it never recurses, so any input is safe to scan.
 * Text that is not JSON gives some answer; parse it as well.
 */
export function jsonNestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * limit) return false; // every level costs an opening and a closing bracket
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** JSON.parse for text from outside: the value, or why not (not JSON, or nested deeper than `limit`). */
export function parseBoundedJson(
  text: string,
  limit = MAX_JSON_DEPTH,
): { ok: true; value: unknown } | { ok: false; reason: "malformed" | "too_deep" } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (jsonNestsDeeperThan(text, limit)) return { ok: false, reason: "too_deep" };
  return { ok: true, value };
}
