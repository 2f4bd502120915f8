import type { SubjectMetadata } from "../types";
import { dataField } from "../reducers/reducer";
import { splitLookupKey, type Condition } from "./schema";

export interface ConditionContext {
  /** Per reducer key, that reducer's reduction data. */
  reductions: Record<string, Record<string, unknown> | null | undefined>;
  /** The subject's metadata (values usually strings). */
  subject?: SubjectMetadata;
}

/** Thrown when evaluation meets something validation would have refused (an unsaved, unvalidated condition). */
export class ConditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConditionError";
  }
}

/**
 * Truthiness as the established (Ruby) engine has it: only null/undefined and false are false; 0, "" and [] are
 * true. A rule fires when its condition is truthy.
 */
export function isTruthy(v: unknown): boolean {
  return v !== null && v !== undefined && v !== false;
}

/** Structural equality without coercion: 1 ≠ "1", arrays and plain objects compared deeply, NaN ≠ NaN. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * One ordering step. Only two numbers or two strings are ordered (strings by code units); any other pair,
 * a string against a number included, is not in order: the comparison is false, never coerced.
 */
function ordered(op: string, a: unknown, b: unknown): boolean {
  const comparable = (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string");
  if (!comparable) return false;
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case "lt":
      return x < y;
    case "lte":
      return x <= y;
    case "gt":
      return x > y;
    default:
      return x >= y;
  }
}

const NUMERIC = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** `to_f`: numbers as they are; numeric strings (whole string, trimmed) parsed; anything else null. */
export function toFloat(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && NUMERIC.test(v)) return Number(v);
  return null;
}

/** `to_i`: `to_f` truncated toward zero ("5.7" → 5, "-2.5" → -2); null when not numeric. */
export function toInteger(v: unknown): number | null {
  const f = toFloat(v);
  return f === null ? null : Math.trunc(f);
}

/**
 * Arithmetic over two or more numbers, folded left. Any operand that is not a finite number, division or
 * modulo by zero, and a non-finite result give null. `%` takes the sign of the divisor (floored, like Ruby).
 */
function arithmetic(op: string, values: unknown[]): number | null {
  if (!values.every((v) => typeof v === "number" && Number.isFinite(v))) return null;
  const nums = values as number[];
  let acc = nums[0];
  for (const n of nums.slice(1)) {
    if ((op === "/" || op === "%") && n === 0) return null;
    if (op === "+") acc += n;
    else if (op === "-") acc -= n;
    else if (op === "*") acc *= n;
    else if (op === "/") acc /= n;
    else acc = acc - n * Math.floor(acc / n);
  }
  return Number.isFinite(acc) ? acc : null;
}

/**
 * A lookup: `subject.<key>` reads subject metadata (the whole rest as one key, else a dotted path);
 * `<reducer_key>.<field>` reads that reducer's data (exact key, else a dotted path into nested objects).
 * Missing reductions, missing keys and null values give the fallback; 0, false and "" are values.
 */
export function lookup(key: string, fallback: unknown, ctx: ConditionContext): unknown {
  const { source, field } = splitLookupKey(key);
  const container = source === "subject" ? ctx.subject : Object.hasOwn(ctx.reductions ?? {}, source) ? ctx.reductions[source] : undefined;
  const v = container ? dataField(container, field) : undefined;
  return v === null || v === undefined ? (fallback ?? null) : v;
}

/** Evaluates a validated condition against reductions and subject metadata. Pure. */
export function evaluate(cond: Condition | unknown, ctx: ConditionContext): unknown {
  if (!Array.isArray(cond) || typeof cond[0] !== "string") throw new ConditionError("not a condition");
  const [op, ...args] = cond as Condition;
  const ev = (a: unknown) => evaluate(a, ctx);
  switch (op) {
    case "const":
      return args[0];
    case "lookup":
      return lookup(String(args[0]), args[1], ctx);
    case "not":
      return !isTruthy(ev(args[0]));
    case "and":
      return args.every((a) => isTruthy(ev(a)));
    case "or":
      return args.some((a) => isTruthy(ev(a)));
    case "eq": {
      const values = args.map(ev);
      return values.every((v, i) => i === 0 || deepEqual(values[i - 1], v));
    }
    case "lt":
    case "lte":
    case "gt":
    case "gte": {
      const values = args.map(ev);
      return values.every((v, i) => i === 0 || ordered(op, values[i - 1], v));
    }
    case "to_f":
      return toFloat(ev(args[0]));
    case "to_i":
      return toInteger(ev(args[0]));
    case "upcase":
    case "downcase": {
      const v = ev(args[0]);
      if (typeof v !== "string") return v;
      return op === "upcase" ? v.toUpperCase() : v.toLowerCase();
    }
    case "+":
    case "-":
    case "*":
    case "/":
    case "%":
      return arithmetic(op, args.map(ev));
    default:
      throw new ConditionError(`unknown operator '${op}'`);
  }
}
