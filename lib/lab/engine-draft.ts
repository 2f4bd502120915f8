// The engine builder's draft of a workflow's decision engine configuration, free of React: its status, how
// rules apply, the extractors, reducers and rules being edited, as a reducer the builder
// (components/lab/engine-builder.tsx) dispatches to; `engineWire` is the configuration it saves.
import {
  type ConditionNode,
  conditionFromWire,
  conditionLookingUp,
  conditionToWire,
  conditionWithout,
  defaultLookup,
  lookupSuggestions,
  newComparison,
} from "./condition-model";
import { type FlowConnection, reducerReading, reducerWithout } from "./engine-flow";
import { extractorFor } from "./engine-options";

type Config = Record<string, unknown>;
export type RuleTopic = "subject" | "user";

/** An extractor or reducer being edited: its key and configuration. */
export interface KeyedRow {
  key: string;
  config: Config;
}

export interface RuleDraft {
  topic: RuleTopic;
  condition: ConditionNode;
  then: Config[];
}

export interface EngineDraft {
  /** Whether the engine has this workflow (a save then replaces it; else it creates it). */
  exists: boolean;
  status: string;
  rulesApplied: string;
  extractors: KeyedRow[];
  reducers: KeyedRow[];
  rules: RuleDraft[];
}

/** A stored configuration, as the engine's API answers it. */
export interface StoredEngineWorkflow {
  status?: string;
  rules_applied?: string;
  extractors_config?: Record<string, Config>;
  reducers_config?: Record<string, Config>;
  rules_config?: { topic?: RuleTopic; if: unknown; then: Config[] }[];
}

type List = "extractors" | "reducers";

export type EngineDraftAction =
  | { type: "load"; stored: StoredEngineWorkflow | null }
  | { type: "status"; status: string }
  | { type: "rulesApplied"; rulesApplied: string }
  | { type: "addExtractor"; taskKey: { key: string; type: string } | undefined }
  | { type: "addReducer" }
  | { type: "addRule" }
  | { type: "setRow"; list: List; index: number; row: KeyedRow }
  | { type: "removeRow"; list: List; index: number }
  | { type: "setRule"; index: number; rule: Partial<RuleDraft> }
  | { type: "removeRule"; index: number }
  | { type: "connect"; link: FlowConnection }
  | { type: "disconnect"; link: FlowConnection }
  /** A node of the flow graph removed: "x:<key>" an extractor, "r:<key>" a reducer, "rule:<index>" a rule. */
  | { type: "removeNode"; id: string };

const rowsOf = (m: Record<string, Config> | undefined): KeyedRow[] => Object.entries(m ?? {}).map(([key, config]) => ({ key, config }));

/** The draft of a stored configuration (null: none yet, a new one with nothing in it). */
export function engineDraft(stored: StoredEngineWorkflow | null): EngineDraft {
  return {
    exists: !!stored,
    status: stored?.status ?? "active",
    rulesApplied: stored?.rules_applied ?? "all_matching_rules",
    extractors: rowsOf(stored?.extractors_config),
    reducers: rowsOf(stored?.reducers_config),
    rules: (stored?.rules_config ?? []).map((r) => ({ topic: r.topic ?? "subject", condition: conditionFromWire(r.if), then: r.then })),
  };
}

/** A configuration as the engine's API takes it. */
export interface EngineWire {
  id: number;
  status: string;
  rules_applied: string;
  extractors_config: Record<string, Config>;
  reducers_config: Record<string, Config>;
  rules_config: { topic: RuleTopic; if: unknown; then: Config[] }[];
}

/** The configuration a draft saves, or why it cannot be saved yet (a condition half written). */
export function engineWire(workflowId: number, d: EngineDraft): { ok: true; value: EngineWire } | { ok: false; message: string } {
  try {
    return {
      ok: true,
      value: {
        id: workflowId,
        status: d.status,
        rules_applied: d.rulesApplied,
        extractors_config: Object.fromEntries(d.extractors.map((r) => [r.key, r.config])),
        reducers_config: Object.fromEntries(d.reducers.map((r) => [r.key, r.config])),
        rules_config: d.rules.map((r) => ({ topic: r.topic, if: conditionToWire(r.condition), then: r.then })),
      },
    };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

/** The reducers by key, as the rules' lookups read them. */
export const reducerTypes = (d: EngineDraft) =>
  Object.fromEntries(d.reducers.map((r) => [r.key, r.config as { type: string; topic?: string }]));

/** `base`, or `base2`, `base3`… whichever no row has. */
export function freshKey(rows: KeyedRow[], base: string): string {
  const taken = new Set(rows.map((r) => r.key));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

const replaceAt = <T>(list: T[], i: number, item: T) => list.map((x, j) => (j === i ? item : x));
const withoutAt = <T>(list: T[], i: number) => list.filter((_, j) => j !== i);

export function engineDraftReducer(d: EngineDraft, a: EngineDraftAction): EngineDraft {
  switch (a.type) {
    case "load":
      return engineDraft(a.stored);
    case "status":
      return { ...d, status: a.status };
    case "rulesApplied":
      return { ...d, rulesApplied: a.rulesApplied };
    case "addExtractor": {
      const config = extractorFor(a.taskKey);
      return { ...d, extractors: [...d.extractors, { key: freshKey(d.extractors, String(config.type)[0]), config }] };
    }
    case "addReducer":
      return { ...d, reducers: [...d.reducers, { key: freshKey(d.reducers, "c"), config: { type: "consensus" } }] };
    case "addRule": {
      const condition = newComparison(defaultLookup(lookupSuggestions(reducerTypes(d), "subject")));
      return { ...d, rules: [...d.rules, { topic: "subject", condition, then: [{ action: "retire_subject", reason: "consensus" }] }] };
    }
    case "setRow":
      return { ...d, [a.list]: replaceAt(d[a.list], a.index, a.row) };
    case "removeRow":
      return { ...d, [a.list]: withoutAt(d[a.list], a.index) };
    case "setRule":
      return { ...d, rules: replaceAt(d.rules, a.index, { ...d.rules[a.index], ...a.rule }) };
    case "removeRule":
      return { ...d, rules: withoutAt(d.rules, a.index) };
    case "connect":
      return connect(d, a.link);
    case "disconnect":
      return disconnect(d, a.link);
    case "removeNode": {
      const key = a.id.slice(a.id.indexOf(":") + 1);
      if (a.id.startsWith("x:")) return { ...d, extractors: d.extractors.filter((r) => r.key !== key) };
      if (a.id.startsWith("r:")) return { ...d, reducers: d.reducers.filter((r) => r.key !== key) };
      if (a.id.startsWith("rule:")) return { ...d, rules: withoutAt(d.rules, Number(key)) };
      return d;
    }
  }
}

/** A link drawn on the canvas: an extractor read by a reducer, a reducer looked up by a rule. */
function connect(d: EngineDraft, link: FlowConnection): EngineDraft {
  if (link.kind === "extractor-reducer")
    return {
      ...d,
      reducers: d.reducers.map((r) => (r.key === link.reducer ? { ...r, config: reducerReading(r.config, link.extractor) } : r)),
    };
  const reducer = reducerTypes(d)[link.reducer];
  return {
    ...d,
    rules: d.rules.map((rule, i) => {
      if (i !== link.rule) return rule;
      const own = lookupSuggestions(reducer ? { [link.reducer]: reducer } : {}, rule.topic).filter((l) => l.startsWith(`${link.reducer}.`));
      return { ...rule, condition: conditionLookingUp(rule.condition, defaultLookup(own) ?? `${link.reducer}.value`) };
    }),
  };
}

/** A link removed on the canvas: the extractor unticked in the reducer's form, the rule's comparisons of the reducer removed. */
function disconnect(d: EngineDraft, link: FlowConnection): EngineDraft {
  if (link.kind === "extractor-reducer") {
    const keys = d.extractors.map((r) => r.key);
    return {
      ...d,
      reducers: d.reducers.map((r) =>
        r.key === link.reducer ? { ...r, config: reducerWithout(r.config, link.extractor, keys) ?? r.config } : r,
      ),
    };
  }
  return {
    ...d,
    rules: d.rules.map((rule, i) =>
      i === link.rule ? { ...rule, condition: conditionWithout(rule.condition, link.reducer) ?? rule.condition } : rule,
    ),
  };
}
