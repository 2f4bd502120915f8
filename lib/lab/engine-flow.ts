// The decision engine's flow as a graph, free of React: extractors feed reducers (all of them, or those a
// reducer's filters name), reducers feed the rules whose conditions look them up, rules lead to their
// effects. The lab draws it with a node-graph library.
import { conditionLookups } from "@/lib/engine/conditions/schema";
import { conditionFromWire, conditionWithout } from "./condition-model";

export type FlowKind = "extractor" | "reducer" | "rule" | "effect";

export interface FlowNode {
  id: string;
  kind: FlowKind;
  label: string;
  /** Position in its column, from the top. */
  row: number;
}

export interface FlowEdge {
  from: string;
  to: string;
  /** An extractor feeding a reducer that names no extractors (so it reads them all). */
  implicit?: true;
}

type Config = Record<string, unknown>;

export interface EngineFlowInput {
  extractors_config: Record<string, Config>;
  reducers_config: Record<string, Config>;
  rules_config: { topic?: string; if: unknown; then: Config[] }[];
}

export const FLOW_COLUMNS: FlowKind[] = ["extractor", "reducer", "rule", "effect"];

/** A short reading of a condition: `c.num_votes ≥ 3`, `and(…)`. */
export function conditionSummary(node: unknown): string {
  if (!Array.isArray(node) || !node.length) return "?";
  const [op, ...args] = node as [string, ...unknown[]];
  const SYMBOL: Record<string, string> = { gt: ">", gte: "≥", lt: "<", lte: "≤", eq: "=" };
  if (op === "const") return JSON.stringify(args[0]);
  if (op === "lookup") return String(args[0]);
  if (SYMBOL[op] && args.length === 2) return `${conditionSummary(args[0])} ${SYMBOL[op]} ${conditionSummary(args[1])}`;
  return `${op}(${args.map(conditionSummary).join(", ")})`;
}

const effectLabel = (e: Config) =>
  [
    String(e.action),
    ...Object.entries(e)
      .filter(([k]) => k !== "action")
      .map(([k, v]) => `${k}: ${String(v)}`),
  ].join(" · ");

export function engineFlow(config: EngineFlowInput): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const extractorKeys = Object.keys(config.extractors_config ?? {});
  extractorKeys.forEach((key, row) => {
    nodes.push({ id: `x:${key}`, kind: "extractor", label: `${key} (${String(config.extractors_config[key].type)})`, row });
  });
  Object.entries(config.reducers_config ?? {}).forEach(([key, r], row) => {
    nodes.push({ id: `r:${key}`, kind: "reducer", label: `${key} (${String(r.type)})`, row });
    const named = ((r.filters as { extractor_keys?: unknown } | undefined)?.extractor_keys ?? []) as string[];
    if (named.length) for (const x of named.filter((k) => extractorKeys.includes(k))) edges.push({ from: `x:${x}`, to: `r:${key}` });
    else for (const x of extractorKeys) edges.push({ from: `x:${x}`, to: `r:${key}`, implicit: true });
  });
  let effectRow = 0;
  (config.rules_config ?? []).forEach((rule, i) => {
    const id = `rule:${i}`;
    nodes.push({
      id,
      kind: "rule",
      label: `Rule ${i + 1}${rule.topic === "user" ? " (volunteer)" : ""}: if ${conditionSummary(rule.if)}`,
      row: i,
    });
    for (const source of new Set(conditionLookups(rule.if).map((l) => l.source)))
      if (config.reducers_config?.[source]) edges.push({ from: `r:${source}`, to: id });
    rule.then.forEach((effect, k) => {
      const eid = `effect:${i}:${k}`;
      nodes.push({ id: eid, kind: "effect", label: effectLabel(effect), row: effectRow++ });
      edges.push({ from: id, to: eid });
    });
  });
  return { nodes, edges };
}

/** What a link drawn on the canvas from one node to another means, or null when it cannot be drawn. */
export type FlowConnection =
  | { kind: "extractor-reducer"; extractor: string; reducer: string }
  | { kind: "reducer-rule"; reducer: string; rule: number };

export function flowConnection(from: string, to: string): FlowConnection | null {
  if (from.startsWith("x:") && to.startsWith("r:")) return { kind: "extractor-reducer", extractor: from.slice(2), reducer: to.slice(2) };
  if (from.startsWith("r:") && /^rule:\d+$/.test(to)) return { kind: "reducer-rule", reducer: from.slice(2), rule: Number(to.slice(5)) };
  return null;
}

/** The extractors a reducer's `filters.extractor_keys` names (none: it reads them all). */
function namedExtractors(reducer: Config): string[] {
  const raw = ((reducer.filters ?? {}) as Config).extractor_keys;
  return Array.isArray(raw) ? (raw as string[]) : raw ? [String(raw)] : [];
}

/** A reducer reading this extractor too: named in its `filters.extractor_keys` (a reducer naming none read them all; now it reads the named). */
export function reducerReading(reducer: Config, extractor: string): Config {
  const named = namedExtractors(reducer);
  if (named.includes(extractor)) return reducer;
  return { ...reducer, filters: { ...((reducer.filters ?? {}) as Config), extractor_keys: [...named, extractor] } };
}

/**
 * A reducer no longer reading `extractor` (of the configuration's `extractors`): unticked in its
 * `filters.extractor_keys`, as its form does; one that read them all now names the others. Null when it
 * would read none of them (naming none means all to the engine), or did not read it.
 */
export function reducerWithout(reducer: Config, extractor: string, extractors: string[]): Config | null {
  const named = namedExtractors(reducer);
  const reading = named.length ? named : extractors;
  const rest = reading.filter((k) => k !== extractor);
  if (rest.length === reading.length || !rest.some((k) => extractors.includes(k))) return null;
  return { ...reducer, filters: { ...((reducer.filters ?? {}) as Config), extractor_keys: rest } };
}

/**
 * A link of the flow (`from`, `to`: its nodes) that the canvas can remove, as a connection; null for one it
 * cannot: a rule's link to its effect, a reducer's only extractor, a lookup written as JSON.
 */
export function removableLink(config: EngineFlowInput, from: string, to: string): FlowConnection | null {
  const link = flowConnection(from, to);
  if (link?.kind === "extractor-reducer") {
    const reducer = config.reducers_config[link.reducer];
    return reducer && reducerWithout(reducer, link.extractor, Object.keys(config.extractors_config)) ? link : null;
  }
  if (link?.kind === "reducer-rule") {
    const rule = config.rules_config[link.rule];
    return rule && conditionWithout(conditionFromWire(rule.if), link.reducer) ? link : null;
  }
  return null;
}
