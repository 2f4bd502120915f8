// A rule's condition as the researcher reads it: a sentence of clauses ("the most common answer is No",
// "its number of votes is at least 3") joined by "and" or "or", each clause a reducer's output picked from a
// list by its name, a comparison and a value (an answer picked by its label where the output is an
// answer). The raw names (c.most_likely, gte) stay in titles and a details disclosure. What a sentence
// cannot say (not, nesting, arithmetic, another default) is edited in the advanced blocks
// (condition-model.ts): `sentenceFromCondition` answers null for it, so no condition is changed by opening it.

import type { Comparison, ConditionNode } from "./condition-model";
import { taskAnswers } from "./task-names";
import type { TaskDef } from "@/lib/tasks/types";

/** What a rule can look up, by its name: a reducer's output (or the subject's priority). */
export interface OutputField {
  /** The lookup, as the engine reads it: `c.most_likely`. */
  lookup: string;
  /** Its name to a researcher: "the most common answer". */
  label: string;
  /** A number compared by size, or an answer (text) compared for equality. */
  kind: "number" | "answer";
  /** For an answer: the values it takes, by their labels (a question's answers: "0" is "Yes"). */
  answers?: { value: string; label: string }[];
}

export interface Clause {
  lookup: string;
  op: Comparison;
  value: string;
}

export interface Sentence {
  join: "and" | "or";
  clauses: Clause[];
}

/** The comparisons a clause offers, by kind of output, in words. */
export const CLAUSE_OPS: Record<OutputField["kind"], { op: Comparison; label: string }[]> = {
  number: [
    { op: "gte", label: "is at least" },
    { op: "gt", label: "is more than" },
    { op: "lte", label: "is at most" },
    { op: "lt", label: "is less than" },
    { op: "eq", label: "is exactly" },
  ],
  answer: [{ op: "eq", label: "is" }],
};

/** Each reducer type's outputs a rule compares, by name (lists and nested values are for the advanced editor). */
const OUTPUT_NAMES: Record<string, [field: string, label: string, kind: OutputField["kind"]][]> = {
  consensus: [
    ["most_likely", "the most common answer", "answer"],
    ["num_votes", "its number of votes", "number"],
    ["agreement", "its share of the votes (0 to 1)", "number"],
  ],
  count: [
    ["classifications", "the number of classifications", "number"],
    ["extracts", "the number of extracts", "number"],
  ],
  summary_stats: ["count", "min", "max", "sum", "mean", "variance", "stdev", "median", "mode"].map((f) => [
    f,
    `the ${({ min: "minimum", max: "maximum", stdev: "standard deviation" } as Record<string, string>)[f] ?? f}`,
    "number",
  ]),
  unique_count: [["unique_count", "the number of different answers", "number"]],
};

type Config = Record<string, unknown>;

/**
 * The outputs a rule of `topic` can compare: each reducer's (named; with the reducer's key when two share a
 * name), a consensus's answers named by the question its extractors read, and the subject's priority.
 */
export function ruleFields(
  reducers: { key: string; config: Config }[],
  extractors: { key: string; config: Config }[],
  tasks: { key: string; task: TaskDef }[],
  topic: "subject" | "user",
): OutputField[] {
  const out: OutputField[] = [];
  for (const r of reducers) {
    if ((r.config.topic === "reduce_by_user") !== (topic === "user")) continue;
    for (const [field, label, kind] of OUTPUT_NAMES[String(r.config.type)] ?? []) {
      const f: OutputField = { lookup: `${r.key}.${field}`, label, kind };
      if (kind === "answer") f.answers = answersRead(r.config, extractors, tasks);
      out.push(f);
    }
  }
  const count = new Map<string, number>();
  for (const f of out) count.set(f.label, (count.get(f.label) ?? 0) + 1);
  for (const f of out) if ((count.get(f.label) ?? 0) > 1) f.label = `${f.label} (${f.lookup.split(".")[0]})`;
  if (topic === "subject") out.push({ lookup: "subject.#priority", label: "the subject's priority", kind: "number" });
  return out;
}

/** The answers a consensus counts: those of the one question task its extractors read (none when it reads several or none). */
function answersRead(reducer: Config, extractors: { key: string; config: Config }[], tasks: { key: string; task: TaskDef }[]) {
  // As the engine reads `filters.extractor_keys`: a key or a list of them; none (empty, "" or null, the saved default []) is all.
  const raw = ((reducer.filters ?? {}) as Config).extractor_keys;
  const named = Array.isArray(raw) ? raw.map(String) : typeof raw === "string" && raw ? [raw] : [];
  const read = extractors.filter((x) => !named.length || named.includes(x.key));
  const taskKeys = [...new Set(read.filter((x) => x.config.type === "question").map((x) => String(x.config.task_key)))];
  if (taskKeys.length !== 1 || read.length !== 1) return undefined;
  const answers = taskAnswers(tasks.find((t) => t.key === taskKeys[0])?.task);
  return answers.length ? answers.map((label, i) => ({ value: String(i), label })) : undefined;
}

const fieldOf = (fields: OutputField[], lookup: string) => fields.find((f) => f.lookup === lookup);

/** A comparison as a clause, if it is one: a named output (with the default the sentence writes) against a value of its kind. */
function clauseOf(node: ConditionNode, fields: OutputField[]): Clause | null {
  if (node.kind !== "compare" || node.left.kind !== "lookup" || node.right.kind !== "const") return null;
  const f = fieldOf(fields, node.left.key);
  if (!f || !CLAUSE_OPS[f.kind].some((o) => o.op === node.op)) return null;
  if (f.kind === "number") {
    const ok = node.left.fallback === "0" && node.left.fallbackType === "number" && node.right.type === "number";
    return ok ? { lookup: f.lookup, op: node.op, value: node.right.value } : null;
  }
  const ok = node.left.fallback === "" && node.right.type === "text";
  return ok ? { lookup: f.lookup, op: node.op, value: node.right.value } : null;
}

/** A condition as a sentence, or null when a sentence cannot say it exactly (then it is edited in the advanced blocks). */
export function sentenceFromCondition(node: ConditionNode, fields: OutputField[]): Sentence | null {
  if (node.kind === "always") return { join: "and", clauses: [] };
  if (node.kind === "compare") {
    const c = clauseOf(node, fields);
    return c && { join: "and", clauses: [c] };
  }
  if (node.kind === "and" || node.kind === "or") {
    const clauses = node.children.map((n) => clauseOf(n, fields));
    return clauses.every((c): c is Clause => c !== null) ? { join: node.kind, clauses } : null;
  }
  return null;
}

/** The condition a sentence says: always (no clause), one comparison, or all (any) of them. */
export function conditionFromSentence(s: Sentence, fields: OutputField[]): ConditionNode {
  const compare = (c: Clause): ConditionNode => {
    const number = fieldOf(fields, c.lookup)?.kind !== "answer";
    return {
      kind: "compare",
      op: c.op,
      left: { kind: "lookup", key: c.lookup, fallback: number ? "0" : "", fallbackType: number ? "number" : "text" },
      right: { kind: "const", value: c.value, type: number ? "number" : "text" },
    };
  };
  if (!s.clauses.length) return { kind: "always" };
  if (s.clauses.length === 1) return compare(s.clauses[0]);
  return { kind: s.join, children: s.clauses.map(compare) };
}

/** A new clause: the first count-like output at least 3, or the first output. */
export function newClause(fields: OutputField[]): Clause | null {
  const f = fields.find((x) => x.kind === "number" && /num_votes|classifications|count/.test(x.lookup)) ?? fields[0];
  if (!f) return null;
  return f.kind === "answer"
    ? { lookup: f.lookup, op: "eq", value: f.answers?.[0]?.value ?? "" }
    : { lookup: f.lookup, op: "gte", value: "3" };
}

/** A clause with another output picked: its comparison and value kept when they fit the new output's kind. */
export function withLookup(c: Clause, lookup: string, fields: OutputField[]): Clause {
  const before = fieldOf(fields, c.lookup)?.kind;
  const f = fieldOf(fields, lookup);
  if (!f || f.kind === before) return { ...c, lookup };
  return f.kind === "answer" ? { lookup, op: "eq", value: f.answers?.[0]?.value ?? "" } : { lookup, op: "gte", value: "3" };
}

/** The sentence in words: "the most common answer is No and its number of votes is at least 3"; "always" without clauses. */
export function sentenceText(s: Sentence, fields: OutputField[]): string {
  if (!s.clauses.length) return "always";
  return s.clauses
    .map((c) => {
      const f = fieldOf(fields, c.lookup);
      const op = CLAUSE_OPS[f?.kind ?? "number"].find((o) => o.op === c.op)?.label ?? c.op;
      const value = f?.answers?.find((a) => a.value === c.value)?.label ?? c.value;
      return `${f?.label ?? c.lookup} ${op} ${value}`;
    })
    .join(` ${s.join} `);
}
