import { z } from "zod";
import { KEY_PATTERN } from "../validation";

// Conditions are nested JSON arrays `[operator, ...args]`, validated recursively when a config is saved so
// that evaluation never meets an unknown operator or a wrong arity.

/** A condition as stored: `["gte", ["lookup", "c.num_votes", 0], ["const", 3]]`. */
export type Condition = [string, ...unknown[]];

export const COMPARISON_OPERATORS = ["lt", "lte", "gt", "gte", "eq"] as const;
export const ARITHMETIC_OPERATORS = ["+", "-", "*", "/", "%"] as const;
export const UNARY_OPERATORS = ["not", "to_f", "to_i", "upcase", "downcase"] as const;
export const LOGICAL_OPERATORS = ["and", "or"] as const;
export const OPERATORS = [
  ...COMPARISON_OPERATORS,
  ...ARITHMETIC_OPERATORS,
  ...UNARY_OPERATORS,
  ...LOGICAL_OPERATORS,
  "const",
  "lookup",
] as const;
export type Operator = (typeof OPERATORS)[number];

export const MAX_CONDITION_DEPTH = 32;
export const MAX_CONDITION_NODES = 1000;

/** `subject.<metadata key>` or `<reducer_key>.<field>` (field may be dotted). */
export const LOOKUP_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}\.\S{1,200}$/;

export interface ConditionProblem {
  path: (string | number)[];
  message: string;
}

export interface LookupRef {
  path: (string | number)[];
  key: string;
  /** `subject` for subject metadata, otherwise the reducer key. */
  source: string;
  field: string;
}

export function splitLookupKey(key: string): { source: string; field: string } {
  const dot = key.indexOf(".");
  return { source: key.slice(0, dot), field: key.slice(dot + 1) };
}

function minArgs(op: Operator): [number, number] {
  if ((COMPARISON_OPERATORS as readonly string[]).includes(op) || (ARITHMETIC_OPERATORS as readonly string[]).includes(op))
    return [2, Infinity];
  if ((LOGICAL_OPERATORS as readonly string[]).includes(op)) return [1, Infinity];
  if (op === "lookup") return [1, 2];
  return [1, 1];
}

/** Every problem of a condition, with paths relative to it (`[1, 2]` is the third item of its second item). */
export function conditionProblems(cond: unknown): ConditionProblem[] {
  const problems: ConditionProblem[] = [];
  let nodes = 0;
  const walk = (node: unknown, path: (string | number)[], depth: number) => {
    if (++nodes > MAX_CONDITION_NODES) {
      if (nodes === MAX_CONDITION_NODES + 1)
        problems.push({ path, message: `a condition may have at most ${MAX_CONDITION_NODES} operations` });
      return;
    }
    if (depth > MAX_CONDITION_DEPTH)
      return void problems.push({ path, message: `conditions may nest at most ${MAX_CONDITION_DEPTH} deep` });
    if (!Array.isArray(node) || node.length === 0)
      return void problems.push({ path, message: "expected a condition array [operator, ...arguments]" });
    const [op, ...args] = node;
    if (typeof op !== "string") return void problems.push({ path: [...path, 0], message: "operator must be a string" });
    if (!(OPERATORS as readonly string[]).includes(op)) return void problems.push({ path, message: `unknown operator '${op}'` });
    const [min, max] = minArgs(op as Operator);
    if (args.length < min || args.length > max) {
      const want = max === Infinity ? `at least ${min}` : min === max ? `exactly ${min}` : `${min} to ${max}`;
      return void problems.push({
        path,
        message: `'${op}' takes ${want} argument${min === 1 && max === 1 ? "" : "s"}, got ${args.length}`,
      });
    }
    if (op === "const") {
      if (args[0] === undefined) problems.push({ path: [...path, 1], message: "const needs a value" });
      return;
    }
    if (op === "lookup") {
      const key = args[0];
      if (typeof key !== "string" || !LOOKUP_KEY_PATTERN.test(key) || !KEY_PATTERN.test(splitLookupKey(key).source))
        problems.push({ path: [...path, 1], message: "lookup key must be '<reducer_key>.<field>' or 'subject.<metadata key>'" });
      return;
    }
    args.forEach((arg, i) => {
      walk(arg, [...path, i + 1], depth + 1);
    });
  };
  walk(cond, [], 0);
  return problems;
}

/** The lookups of a (valid) condition, for cross-checking against the configured reducers. */
export function conditionLookups(cond: unknown): LookupRef[] {
  const refs: LookupRef[] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (!Array.isArray(node) || node.length === 0) return;
    const [op, ...args] = node;
    if (op === "const") return;
    if (op === "lookup") {
      if (typeof args[0] === "string" && args[0].includes(".")) refs.push({ path: [...path, 1], key: args[0], ...splitLookupKey(args[0]) });
      return;
    }
    args.forEach((arg, i) => {
      walk(arg, [...path, i + 1]);
    });
  };
  walk(cond, []);
  return refs;
}

/** A condition, validated recursively; issue paths point into the array (`if[1][0]: unknown operator 'gtx'`). */
export const ZCondition = z.unknown().superRefine((value, ctx) => {
  for (const p of conditionProblems(value)) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
}) as unknown as z.ZodType<Condition, unknown>;
