// Text of a value a client sent, where a string is expected but anything may come.

/**
 * Strings as they are, finite numbers, booleans and bigints written out, anything else (null, undefined,
 * objects, arrays) "". String() or a template literal of a client's object runs that object's own
 * `toString` / `valueOf` keys: `{"toString": "x"}` throws "Cannot convert object to primitive value" (a 500
 * wherever it happened, the classification create among them).
 */
export function scalarText(v: unknown): string {
  if (typeof v === "string") return v;
  if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return "";
}

/** Whether a value is a string or a finite number (what clients send for a key, an id or a version). */
export const isScalarText = (v: unknown): v is string | number => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
