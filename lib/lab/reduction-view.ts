// A reduction as a researcher reads it: answer counts with the workflow's own answer labels (not indexes), a
// consensus with its most likely answer named, other outputs as their fields. The engine's reducers document
// their outputs (lib/engine/reducers/*.ts); a reducer's task is found through its extractors' task_key. Pure,
// browser-safe: the monitor and the dry run draw what this returns.
import type { Task, Tasks } from "@/lib/tasks/types";

export interface CountRow {
  key: string;
  label: string;
  count: number;
  /** The answer with the most (the first of those tied, in the order shown). */
  top: boolean;
}

export type ReductionView =
  | { kind: "counts"; rows: CountRow[]; total: number }
  | { kind: "consensus"; key: string | null; label: string; votes: number; agreement: number | null }
  | { kind: "fields"; rows: { key: string; text: string }[] }
  | { kind: "raw" };

/** The extractors and reducers of an engine configuration, as far as labelling needs them. */
export interface EngineShape {
  extractors_config?: Record<string, { type?: unknown; task_key?: unknown }>;
  reducers_config?: Record<string, { filters?: { extractor_keys?: unknown } }>;
}

/** Extractor types whose output keys are a task's answers: answer indexes (question) or choices (survey). */
const ANSWER_EXTRACTORS = new Set(["question", "survey"]);

/**
 * The task whose answers a reducer's output is keyed by: the one task_key of the question or survey
 * extractors it reads (its filters' extractor_keys, or every extractor). Null when there is none, or several.
 */
export function reducerTaskKey(config: EngineShape | null | undefined, reducerKey: string): string | null {
  const extractors = config?.extractors_config ?? {};
  const reducer =
    config?.reducers_config && Object.hasOwn(config.reducers_config, reducerKey) ? config.reducers_config[reducerKey] : undefined;
  if (!reducer) return null;
  const listed = reducer.filters?.extractor_keys;
  const keys = Array.isArray(listed) && listed.length ? listed.map(String) : Object.keys(extractors);
  const tasks = new Set<string>();
  for (const k of keys) {
    const ex = Object.hasOwn(extractors, k) ? extractors[k] : undefined;
    if (ex && ANSWER_EXTRACTORS.has(String(ex.type)) && typeof ex.task_key === "string") tasks.add(ex.task_key);
  }
  return tasks.size === 1 ? [...tasks][0] : null;
}

/** One answer key's label: a question's answer (by index), a survey's choice; the key itself otherwise. */
function oneLabel(task: Task | undefined, key: string): string | null {
  if (!task) return null;
  const answers = (task as { answers?: unknown }).answers;
  if (Array.isArray(answers) && /^\d+$/.test(key)) {
    const label = (answers[Number(key)] as { label?: unknown } | undefined)?.label;
    return typeof label === "string" && label.trim() ? label.trim() : null;
  }
  const choices = (task as { choices?: unknown }).choices;
  if (choices && typeof choices === "object" && Object.hasOwn(choices, key)) {
    const label = (choices as Record<string, { label?: unknown }>)[key]?.label;
    return typeof label === "string" && label.trim() ? label.trim() : null;
  }
  return null;
}

/** An answer key as a reader sees it: its label, or labels joined (a consensus over several answers, "0+2"). */
export function answerLabel(task: Task | undefined, key: string): string {
  const whole = oneLabel(task, key);
  if (whole !== null) return whole;
  if (key.includes("+")) {
    const parts = key.split("+").map((k) => oneLabel(task, k));
    if (parts.every((p) => p !== null)) return parts.join(" + ");
  }
  return task && Array.isArray((task as { answers?: unknown }).answers) && /^\d+$/.test(key) ? `answer ${key}` : key;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;
const short = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
};

/** Whether every key of a count map is one of the task's answers (an index in range, or a survey choice). */
function keysAreAnswers(task: Task | undefined, keys: string[]): boolean {
  return !!task && keys.every((k) => oneLabel(task, k) !== null || /^\d+$/.test(k));
}

/** How to show one reduction's data, given the task its reducer reads (when known). */
export function reductionView(data: unknown, task: Task | undefined): ReductionView {
  if (!isRecord(data)) return { kind: "raw" };
  const keys = Object.keys(data);
  // consensus: {most_likely, num_votes, agreement} or {num_votes: 0}
  if (isCount(data.num_votes) && (typeof data.most_likely === "string" || (data.num_votes === 0 && keys.length === 1))) {
    const key = typeof data.most_likely === "string" ? data.most_likely : null;
    return {
      kind: "consensus",
      key,
      label: key === null ? "no votes yet" : answerLabel(task, key),
      votes: data.num_votes,
      agreement: typeof data.agreement === "number" ? data.agreement : null,
    };
  }
  // answer counts (stats over a question or survey extractor, first_extract of one): {"0": 3, "1": 1}
  if (keys.length && keys.every((k) => isCount(data[k])) && keysAreAnswers(task, keys)) {
    // Every answer of a question is named, those nobody gave with 0 (a yes/no question shows both).
    const answers = (task as { answers?: unknown }).answers;
    const all = [...keys];
    if (Array.isArray(answers) && keys.every((k) => /^\d+$/.test(k)))
      for (let i = 0; i < answers.length; i++) if (!Object.hasOwn(data, String(i))) all.push(String(i));
    const countOf = (k: string) => (Object.hasOwn(data, k) ? (data[k] as number) : 0);
    const ordered = all.sort((a, b) => (/^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) - Number(b) : 0));
    const max = Math.max(...ordered.map(countOf));
    let topTaken = false;
    const rows = ordered.map((key) => {
      const count = countOf(key);
      const top = !topTaken && count === max && max > 0;
      if (top) topTaken = true;
      return { key, label: answerLabel(task, key), count, top };
    });
    return { kind: "counts", rows, total: rows.reduce((n, r) => n + r.count, 0) };
  }
  if (keys.length && keys.length <= 12 && keys.every((k) => data[k] === null || typeof data[k] !== "object" || Array.isArray(data[k])))
    return { kind: "fields", rows: keys.map((key) => ({ key, text: data[key] === null ? "—" : short(data[key]) })) };
  return { kind: "raw" };
}

/** The task of a reducer's output, from the workflow's tasks (undefined when the reducer reads no one task). */
export function taskOfReducer(
  tasks: Tasks | null | undefined,
  config: EngineShape | null | undefined,
  reducerKey: string,
): Task | undefined {
  const key = reducerTaskKey(config, reducerKey);
  return key !== null && tasks && Object.hasOwn(tasks, key) ? tasks[key] : undefined;
}

/** One bar of a drawn reduction: an answer (or the rest of the votes) and how many gave it. */
export interface VoteRow {
  key: string;
  label: string;
  value: number;
  highlight?: boolean;
}

/**
 * A consensus as bars: its most likely answer, then the other votes. A consensus knows only the top answer's
 * votes and its share (agreement = votes / classifications), so the rest is named when it can only be one
 * answer (a question with two answers: "No" beside "Yes"), and "Other answers" when it may be several.
 */
export function consensusRows(view: Extract<ReductionView, { kind: "consensus" }>, task: Task | undefined): VoteRow[] {
  if (view.key === null) return [];
  const total = view.agreement ? Math.round(view.votes / view.agreement) : view.votes;
  const rows: VoteRow[] = [{ key: view.key, label: view.label, value: view.votes, highlight: true }];
  const answers = (task as { answers?: unknown } | undefined)?.answers;
  if (Array.isArray(answers) && answers.length === 2 && (view.key === "0" || view.key === "1")) {
    const other = view.key === "0" ? "1" : "0";
    rows.push({ key: other, label: answerLabel(task, other), value: total - view.votes });
  } else if (total > view.votes) rows.push({ key: "rest", label: "Other answers", value: total - view.votes });
  return rows;
}

/** The numbers a reduction draws as bars (none when it draws none): what a view's one shared scale is set by. */
export function barValues(data: unknown, task: Task | undefined): number[] {
  const view = reductionView(data, task);
  if (view.kind === "counts") return view.rows.map((r) => r.count);
  if (view.kind === "consensus") return consensusRows(view, task).map((r) => r.value);
  return [];
}
