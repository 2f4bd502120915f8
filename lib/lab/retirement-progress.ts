// How close a subject is to retiring, as the monitor says it ("2 of 3 votes to retire"). The count that
// retires a subject comes from the engine's rules when one retires on a count (`["gte", ["lookup",
// "c.num_votes", 0], ["const", 3]]`: 3 of the consensus's votes), else from the workflow's retirement
// criteria (classification_count: that many classifications; the page passes its count, lib/domain's
// retirementLimit). Pure, browser-safe.

/** What retires a subject at a count, and where the subject's count is read. */
export type RetireTarget =
  | { source: "engine"; reducerKey: string; field: string; count: number; fallback: number }
  | { source: "workflow"; count: number };

interface RuleShape {
  topic?: unknown;
  if?: unknown;
  then?: unknown;
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

/** `["const", n]` as n. */
function constant(node: unknown): number | null {
  return Array.isArray(node) && node.length === 2 && node[0] === "const" && typeof node[1] === "number" ? node[1] : null;
}

/** `["lookup", "<reducer>.<field>", default?]` as its reducer, field and default (subject metadata is no count). */
function lookup(node: unknown): { reducerKey: string; field: string; fallback: number } | null {
  if (!Array.isArray(node) || node[0] !== "lookup" || typeof node[1] !== "string" || node.length > 3) return null;
  const dot = node[1].indexOf(".");
  if (dot < 1 || dot === node[1].length - 1) return null;
  const reducerKey = node[1].slice(0, dot);
  if (reducerKey === "subject") return null;
  return { reducerKey, field: node[1].slice(dot + 1), fallback: typeof node[2] === "number" ? node[2] : 0 };
}

/**
 * The count a condition retires at, when it is one comparison of a reducer's field with a whole number:
 * `value >= n` and `n <= value` at n, `value > n` and `n < value` at n + 1, `value == n` at n. Null otherwise
 * (a share such as agreement >= 0.8, several conditions joined, arithmetic).
 */
function countCondition(cond: unknown): Omit<Extract<RetireTarget, { source: "engine" }>, "source"> | null {
  if (!Array.isArray(cond) || cond.length !== 3) return null;
  const [op, a, b] = cond;
  const flipped: Record<string, string> = { lte: "gte", lt: "gt", eq: "eq" };
  let found: { look: ReturnType<typeof lookup>; n: number | null; op: string } | null = null;
  if (["gte", "gt", "eq"].includes(op) && lookup(a)) found = { look: lookup(a), n: constant(b), op };
  else if (Object.hasOwn(flipped, op) && lookup(b)) found = { look: lookup(b), n: constant(a), op: flipped[op] };
  if (!found?.look || !isInt(found.n)) return null;
  const count = found.op === "gt" ? found.n + 1 : found.n;
  return count >= 1 ? { ...found.look, count } : null;
}

/**
 * What retires this workflow's subjects at a count: the first subject rule that retires (and runs: not under
 * `no_rules`) on a count, else the workflow's classification_count (`workflowLimit`). Null when neither: the
 * workflow never retires on its own (never_retire) and no rule retires at a count.
 */
export function retireTarget(
  engine: { rules_config?: unknown; rules_applied?: unknown } | null | undefined,
  workflowLimit: number | null,
): RetireTarget | null {
  const rules = engine && engine.rules_applied !== "no_rules" && Array.isArray(engine.rules_config) ? engine.rules_config : [];
  for (const rule of rules as RuleShape[]) {
    if (!rule || (rule.topic ?? "subject") !== "subject" || !Array.isArray(rule.then)) continue;
    if (!rule.then.some((e) => (e as { action?: unknown } | null)?.action === "retire_subject")) continue;
    const found = countCondition(rule.if);
    if (found) return { source: "engine", ...found };
  }
  return isInt(workflowLimit) && workflowLimit >= 1 ? { source: "workflow", count: workflowLimit } : null;
}

/** A subject's count towards an engine target: the field of its reducer's reductions, as the rule looks it up. */
export function engineCount(
  target: Extract<RetireTarget, { source: "engine" }>,
  reductions: { reducer_key: string; subgroup?: string; data: unknown }[],
): number {
  // As the engine builds its context: the default subgroup's fields at the top, others under their name.
  const ctx: Record<string, unknown> = Object.create(null);
  for (const r of reductions) {
    if (r.reducer_key !== target.reducerKey || !r.data || typeof r.data !== "object") continue;
    if ((r.subgroup ?? "_default") === "_default") Object.assign(ctx, r.data);
    else ctx[r.subgroup!] = r.data;
  }
  let value: unknown = ctx;
  for (const part of target.field.split(".")) {
    value = value && typeof value === "object" && Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
  }
  return typeof value === "number" && Number.isFinite(value) ? value : target.fallback;
}

/** "2 of 3 votes to retire" (never more than the target: a subject past it retires on the next reduction). */
export function votesToRetireText(current: number, target: number): string {
  const n = Math.max(0, Math.min(Math.floor(current), target));
  return `${n} of ${target} vote${target === 1 ? "" : "s"} to retire`;
}

/** The target in words, for the monitor's note above its subjects. */
export function retireTargetText(target: RetireTarget | null): string {
  if (!target) return "This workflow never retires subjects at a set count, and no engine rule retires one at a count of votes.";
  if (target.source === "engine")
    return `A subject retires at ${target.count} (${target.reducerKey}.${target.field}, the decision engine's retirement rule).`;
  return `A subject retires after ${target.count} classification${target.count === 1 ? "" : "s"} (the workflow's retirement criteria).`;
}
