// The visual rule builder's model of a condition, and its translation to and from the engine's wire form
// (nested arrays: `["gte", ["lookup", "c.num_votes", 0], ["const", 3]]`). What the builder cannot show as
// blocks (arithmetic, unary operators, nesting it does not know) stays as JSON the researcher edits directly,
// so no configuration is ever lost by opening it in the builder.

export const COMPARISONS = ["eq", "gt", "gte", "lt", "lte"] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const COMPARISON_LABELS: Record<Comparison, string> = {
  eq: "equals",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
};

export type ConstType = "number" | "text" | "boolean";
export type Operand =
  | { kind: "lookup"; key: string; fallback: string; fallbackType: ConstType }
  | { kind: "const"; value: string; type: ConstType };

export type ConditionNode =
  | { kind: "compare"; op: Comparison; left: Operand; right: Operand }
  | { kind: "and" | "or"; children: ConditionNode[] }
  | { kind: "not"; child: ConditionNode }
  | { kind: "always" }
  | { kind: "json"; text: string };

export class ConditionModelError extends Error {}

function typedValue(value: string, type: ConstType): unknown {
  if (type === "boolean") return value === "true";
  if (type === "number") {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n)) throw new ConditionModelError(`'${value}' is not a number`);
    return n;
  }
  return value;
}

const typeOf = (v: unknown): ConstType => (typeof v === "number" ? "number" : typeof v === "boolean" ? "boolean" : "text");

function operandToWire(o: Operand): unknown[] {
  if (o.kind === "lookup") return o.fallback === "" ? ["lookup", o.key] : ["lookup", o.key, typedValue(o.fallback, o.fallbackType)];
  return ["const", typedValue(o.value, o.type)];
}

/** The wire form of a builder condition (throws ConditionModelError for a value that is not what its type says). */
export function conditionToWire(node: ConditionNode): unknown[] {
  switch (node.kind) {
    case "compare":
      return [node.op, operandToWire(node.left), operandToWire(node.right)];
    case "and":
    case "or":
      return [node.kind, ...node.children.map(conditionToWire)];
    case "not":
      return ["not", conditionToWire(node.child)];
    case "always":
      return ["const", true];
    case "json":
      try {
        return JSON.parse(node.text);
      } catch {
        throw new ConditionModelError("the condition written as JSON is not valid JSON");
      }
  }
}

function operandFromWire(v: unknown): Operand | null {
  if (!Array.isArray(v)) return null;
  if (v[0] === "lookup" && typeof v[1] === "string" && v.length <= 3) {
    const fallback = v.length === 3 ? v[2] : undefined;
    if (fallback !== undefined && (typeof fallback === "object" || fallback === null)) return null;
    return {
      kind: "lookup",
      key: v[1],
      fallback: fallback === undefined ? "" : String(fallback),
      fallbackType: fallback === undefined ? "number" : typeOf(fallback),
    };
  }
  if (v[0] === "const" && v.length === 2 && v[1] !== null && typeof v[1] !== "object")
    return { kind: "const", value: String(v[1]), type: typeOf(v[1]) };
  return null;
}

/** A wire condition as builder blocks; parts the blocks cannot express become JSON nodes. */
export function conditionFromWire(v: unknown): ConditionNode {
  const json = (): ConditionNode => ({ kind: "json", text: JSON.stringify(v) });
  if (!Array.isArray(v)) return json();
  const [op, ...args] = v;
  if (op === "const" && args.length === 1 && args[0] === true) return { kind: "always" };
  if ((COMPARISONS as readonly unknown[]).includes(op) && args.length === 2) {
    const left = operandFromWire(args[0]);
    const right = operandFromWire(args[1]);
    if (left && right) return { kind: "compare", op: op as Comparison, left, right };
    return json();
  }
  if ((op === "and" || op === "or") && args.length >= 1) return { kind: op, children: args.map(conditionFromWire) };
  if (op === "not" && args.length === 1) return { kind: "not", child: conditionFromWire(args[0]) };
  return json();
}

/** A new comparison block: `<first reducer>.<field> is at least 3`. */
export function newComparison(lookupKey = "c.num_votes"): ConditionNode {
  return {
    kind: "compare",
    op: "gte",
    left: { kind: "lookup", key: lookupKey, fallback: "0", fallbackType: "number" },
    right: { kind: "const", value: "3", type: "number" },
  };
}

/** The fields each reducer type's reduction has, for suggesting lookups (`c.num_votes`). */
export const REDUCTION_FIELDS: Record<string, string[]> = {
  consensus: ["most_likely", "num_votes", "agreement"],
  count: ["classifications", "extracts"],
  stats: [],
  first_extract: [],
  summary_stats: ["count", "min", "max", "sum", "mean", "variance", "stdev", "median", "mode"],
  unique_count: ["unique_count", "values"],
  rectangle: [],
  queue: ["delivered"],
  external: [],
};

/** The lookup a new comparison starts from: a count-like field when there is one. */
export function defaultLookup(suggestions: string[]): string | undefined {
  return suggestions.find((s) => /\.(num_votes|classifications|count|unique_count)$/.test(s)) ?? suggestions[0];
}

/** Lookup keys to suggest for a rule of this topic: reducer fields, and subject metadata for subject rules. */
export function lookupSuggestions(reducers: Record<string, { type: string; topic?: string }>, topic: "subject" | "user"): string[] {
  const out: string[] = [];
  for (const [key, r] of Object.entries(reducers)) {
    if ((r.topic === "reduce_by_user") !== (topic === "user")) continue;
    for (const field of REDUCTION_FIELDS[r.type] ?? []) out.push(`${key}.${field}`);
  }
  if (topic === "subject") out.push("subject.#priority");
  return out;
}

/**
 * A condition that also looks up `lookupKey` (a reducer linked to the rule on the canvas): a comparison or
 * "always" becomes a comparison of it (keeping the operator and value); and/or gain a comparison of it;
 * anything else is joined with one by `and`. Unchanged when it already looks up that reducer.
 */
export function conditionLookingUp(node: ConditionNode, lookupKey: string): ConditionNode {
  const source = lookupKey.split(".")[0];
  if (conditionSources(node).includes(source)) return node;
  if (node.kind === "compare") return { ...node, left: { kind: "lookup", key: lookupKey, fallback: "0", fallbackType: "number" } };
  if (node.kind === "always") return newComparison(lookupKey);
  if (node.kind === "and" || node.kind === "or") return { ...node, children: [...node.children, newComparison(lookupKey)] };
  return { kind: "and", children: [node, newComparison(lookupKey)] };
}

/**
 * A condition that no longer looks up reducer `source` (a link removed on the canvas), as the builder's own
 * controls would do it: each comparison of it removed from its and/or (the block's "Remove"), a not of it
 * removed with it, and a condition left with nothing becomes "always". Null when the builder's blocks do not
 * look it up (a lookup written as JSON is edited there).
 */
export function conditionWithout(node: ConditionNode, source: string): ConditionNode | null {
  const drop = (n: ConditionNode): ConditionNode | null => {
    if (!conditionSources(n).includes(source)) return n;
    if (n.kind === "not") {
      const child = drop(n.child);
      return child && { ...n, child };
    }
    if (n.kind === "and" || n.kind === "or") {
      const children = n.children.map(drop).filter((c): c is ConditionNode => c !== null);
      return children.length ? { ...n, children } : null;
    }
    return null;
  };
  if (!conditionSources(node).includes(source)) return null;
  return drop(node) ?? { kind: "always" };
}

/** The reducers (or `subject`, `user`) a builder condition's lookups read. */
function conditionSources(node: ConditionNode): string[] {
  const src = (o: Operand) => (o.kind === "lookup" ? [o.key.split(".")[0]] : []);
  switch (node.kind) {
    case "compare":
      return [...src(node.left), ...src(node.right)];
    case "and":
    case "or":
      return node.children.flatMap(conditionSources);
    case "not":
      return conditionSources(node.child);
    default:
      return [];
  }
}
