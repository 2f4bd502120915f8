"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import {
  conditionFromWire,
  conditionToWire,
  conditionLookingUp,
  conditionWithout,
  defaultLookup,
  lookupSuggestions,
  newComparison,
  type ConditionNode,
} from "@/lib/lab/condition-model";
import { lazyPart } from "@/components/classifier/lazy-part";
import { ApiRequestError, request, requestOrNull } from "@/components/ui/api-client";
import { Section, TextInput, buttonClass, inputClass } from "@/components/ui/controls";
import { NamedSelect } from "@/components/ui/named-select";
import { EFFECT_OPTIONS, ENGINE_OPTIONS as O, effectOption, extractorFor } from "@/lib/lab/engine-options";
import { ENGINE_LABELS, engineOptions } from "@/lib/lab/labels";
import { reducerReading, reducerWithout, type FlowConnection } from "@/lib/lab/engine-flow";
import { ConditionEditor } from "./condition-editor";
import type { EngineWorkflowAnswer, EngineWorkflowRecord } from "@/components/ui/wire-types";

// The flow graph (React Flow) and the dry run are chunks of their own.
const EngineFlowGraph = lazyPart(
  () => import("./engine-flow-graph").then((m) => m.EngineFlowGraph),
  <p className="text-sm text-gray-600">Loading the flow…</p>,
);
const DryRunPanel = lazyPart(
  () => import("./dry-run-panel").then((m) => m.DryRunPanel),
  <p className="text-sm text-gray-600">Loading the dry run…</p>,
);

// The decision engine's visual builder for one workflow: extractors, reducers and rules as forms, saved to
// /engine/workflows/<id> (the browser session authorises the call). The server validates the whole
// configuration; its message names the offending path, and nothing is saved until it is valid.

/** A configuration (extractor, reducer, effect) as the form edits it: any keys, checked by the server on save. */
type Config = Record<string, unknown>;
interface Row {
  key: string;
  config: Config;
}
interface RuleState {
  topic: "subject" | "user";
  condition: ConditionNode;
  then: Config[];
}

const MESSAGE_STYLES = { error: "border-red-300 bg-red-50", warning: "border-amber-300 bg-amber-50", ok: "border-green-300 bg-green-50" };

const rowsOf = (m: Record<string, Config> | undefined): Row[] => Object.entries(m ?? {}).map(([key, config]) => ({ key, config }));

export function EngineBuilder({
  workflowId,
  taskKeys,
  configured,
}: {
  workflowId: number;
  taskKeys: { key: string; type: string }[];
  /** Whether the workflow has a configuration yet (the page knows): none is not asked for, a 404 the browser would log. */
  configured: boolean;
}) {
  const loaded = useQuery({
    queryKey: ["engine-workflow", workflowId, configured],
    queryFn: async () => {
      if (!configured) return null;
      const body = await requestOrNull<EngineWorkflowAnswer>("engine", `/workflows/${workflowId}`);
      return body ? body.workflow : null; // null: not in the engine yet
    },
    staleTime: Infinity,
  });
  const [exists, setExists] = useState(false);
  const [status, setStatus] = useState("active");
  const [rulesApplied, setRulesApplied] = useState("all_matching_rules");
  const [extractors, setExtractors] = useState<Row[]>([]);
  const [reducers, setReducers] = useState<Row[]>([]);
  const [rules, setRules] = useState<RuleState[]>([]);
  const [message, setMessage] = useState<{ kind: "error" | "warning" | "ok"; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const load = (w: EngineWorkflowRecord | null) => {
    setExists(!!w);
    setStatus(w?.status ?? "active");
    setRulesApplied(w?.rules_applied ?? "all_matching_rules");
    setExtractors(rowsOf(w?.extractors_config));
    setReducers(rowsOf(w?.reducers_config));
    setRules((w?.rules_config ?? []).map((r) => ({ topic: r.topic ?? "subject", condition: conditionFromWire(r.if), then: r.then })));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` only sets state; the form is filled when the stored configuration arrives
  useEffect(() => {
    if (loaded.data !== undefined) load(loaded.data);
  }, [loaded.data]);

  const wire = useMemo(() => {
    try {
      return {
        ok: true as const,
        value: {
          id: workflowId,
          status,
          rules_applied: rulesApplied,
          extractors_config: Object.fromEntries(extractors.map((r) => [r.key, r.config])),
          reducers_config: Object.fromEntries(reducers.map((r) => [r.key, r.config])),
          rules_config: rules.map((r) => ({ topic: r.topic, if: conditionToWire(r.condition), then: r.then })),
        },
      };
    } catch (err) {
      return { ok: false as const, message: (err as Error).message };
    }
  }, [workflowId, status, rulesApplied, extractors, reducers, rules]);

  const save = async () => {
    if (!wire.ok) return setMessage({ kind: "error", text: wire.message });
    setSaving(true);
    setMessage(null);
    try {
      const body = await request<EngineWorkflowAnswer>("engine", exists ? `/workflows/${workflowId}` : "/workflows", {
        method: exists ? "PUT" : "POST",
        json: { workflow: wire.value },
      });
      load(body.workflow);
      const warnings = body?.warnings ?? [];
      setMessage(
        warnings.length
          ? { kind: "warning", text: `Saved, with warnings. ${warnings.join("; ")}` }
          : { kind: "ok", text: "Saved. New classifications are processed with this configuration." },
      );
    } catch (err) {
      setMessage({
        kind: "error",
        text: err instanceof ApiRequestError ? err.message : `Could not reach the server: ${(err as Error).message}`,
      });
    } finally {
      setSaving(false);
    }
  };

  if (loaded.isPending)
    return (
      <p role="status" className="animate-pulse text-gray-600">
        Loading the decision engine configuration…
      </p>
    );
  if (loaded.isError)
    return (
      <p role="alert" className="rounded border border-red-300 bg-red-50 p-3">
        The configuration could not be loaded: {(loaded.error as Error).message}
      </p>
    );

  const reducerMap = Object.fromEntries(reducers.map((r) => [r.key, r.config as { type: string; topic?: string }]));
  const extractorKeys = extractors.map((r) => r.key);
  const addExtractor = () =>
    setExtractors((x) => {
      const config = extractorFor(taskKeys[0]);
      return [...x, { key: freshKey(x, config.type[0]), config }];
    });
  const addReducer = () => setReducers((x) => [...x, { key: freshKey(x, "c"), config: { type: "consensus" } }]);
  const addRule = () =>
    setRules((x) => [
      ...x,
      {
        topic: "subject",
        condition: newComparison(defaultLookup(lookupSuggestions(reducerMap, "subject"))),
        then: [{ action: "retire_subject", reason: "consensus" }],
      },
    ]);
  // The canvas's links: an extractor read by a reducer, a reducer looked up by a rule.
  const connect = (link: FlowConnection) => {
    if (link.kind === "extractor-reducer")
      setReducers((x) => x.map((r) => (r.key === link.reducer ? { ...r, config: reducerReading(r.config, link.extractor) } : r)));
    else
      setRules((x) =>
        x.map((rule, i) => {
          if (i !== link.rule) return rule;
          const reducer = reducerMap[link.reducer];
          const own = lookupSuggestions(reducer ? { [link.reducer]: reducer } : {}, rule.topic).filter((l) =>
            l.startsWith(`${link.reducer}.`),
          );
          return { ...rule, condition: conditionLookingUp(rule.condition, defaultLookup(own) ?? `${link.reducer}.value`) };
        }),
      );
  };
  // A link removed on the canvas: the extractor unticked in the reducer's form, the rule's comparisons of the reducer removed.
  const disconnect = (link: FlowConnection) => {
    if (link.kind === "extractor-reducer")
      setReducers((x) =>
        x.map((r) => (r.key === link.reducer ? { ...r, config: reducerWithout(r.config, link.extractor, extractorKeys) ?? r.config } : r)),
      );
    else
      setRules((x) =>
        x.map((rule, i) =>
          i === link.rule ? { ...rule, condition: conditionWithout(rule.condition, link.reducer) ?? rule.condition } : rule,
        ),
      );
  };
  // A canvas node's form: scrolled to, its first field focused.
  const openNode = (id: string) => {
    const [kind, key, rule] = [id.slice(0, id.indexOf(":")), id.slice(id.indexOf(":") + 1), id.split(":")[1]];
    const formId =
      kind === "x"
        ? `engine-extractor-${extractors.findIndex((r) => r.key === key)}`
        : kind === "r"
          ? `engine-reducer-${reducers.findIndex((r) => r.key === key)}`
          : `engine-rule-${rule}`;
    const form = document.getElementById(formId);
    form?.scrollIntoView({ block: "start" });
    form?.querySelector<HTMLElement>("input, select, textarea")?.focus({ preventScroll: true });
  };
  const removeNode = (id: string) => {
    const key = id.slice(id.indexOf(":") + 1);
    if (id.startsWith("x:")) setExtractors((x) => x.filter((r) => r.key !== key));
    else if (id.startsWith("r:")) setReducers((x) => x.filter((r) => r.key !== key));
    else if (id.startsWith("rule:")) setRules((x) => x.filter((_, j) => j !== Number(key)));
  };
  return (
    <form
      className="flex flex-col gap-6"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {!exists && (
        <p className="rounded bg-brand-50 p-3 text-sm">
          This workflow is not in the decision engine yet. Add extractors, reducers and rules, then save.
        </p>
      )}
      <div className="flex flex-wrap gap-4">
        <NamedSelect label="Status" value={status} options={engineOptions("statuses")} onChange={setStatus} />
        <NamedSelect label="Rules applied" value={rulesApplied} options={engineOptions("rulesApplied")} onChange={setRulesApplied} />
      </div>
      {wire.ok ? (
        <EngineFlowGraph
          config={wire.value}
          onAdd={(kind) => ({ extractor: addExtractor, reducer: addReducer, rule: addRule })[kind]()}
          onConnect={connect}
          onDisconnect={disconnect}
          onOpen={openNode}
          onRemove={removeNode}
        />
      ) : (
        <p className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          The flow is drawn again once the configuration is valid: {wire.message}
        </p>
      )}

      <Section
        title="Extractors"
        hint="Turn each classification's annotations into extracts."
        onAdd={addExtractor}
        addLabel="Add an extractor"
      >
        {extractors.map((row, i) => (
          <KeyedCard
            key={i}
            what="Extractor"
            row={row}
            index={i}
            types="extractorTypes"
            onChange={(r) => setExtractors((x) => x.map((y, j) => (j === i ? r : y)))}
            onRemove={() => setExtractors((x) => x.filter((_, j) => j !== i))}
          >
            <ExtractorFields
              row={row}
              taskKeys={taskKeys}
              onChange={(config) => setExtractors((x) => x.map((y, j) => (j === i ? { ...y, config } : y)))}
            />
          </KeyedCard>
        ))}
      </Section>

      <Section
        title="Reducers"
        hint="Combine the extracts of a subject (or a volunteer) into a reduction."
        onAdd={addReducer}
        addLabel="Add a reducer"
      >
        {reducers.map((row, i) => (
          <KeyedCard
            key={i}
            what="Reducer"
            row={row}
            index={i}
            types="reducerTypes"
            onChange={(r) => setReducers((x) => x.map((y, j) => (j === i ? r : y)))}
            onRemove={() => setReducers((x) => x.filter((_, j) => j !== i))}
          >
            <ReducerFields
              row={row}
              extractorKeys={extractorKeys}
              onChange={(config) => setReducers((x) => x.map((y, j) => (j === i ? { ...y, config } : y)))}
            />
          </KeyedCard>
        ))}
      </Section>

      <Section
        title="Rules"
        hint="When a rule's condition holds for a subject's (or volunteer's) reductions, its effects happen once."
        onAdd={addRule}
        addLabel="Add a rule"
      >
        {rules.map((rule, i) => {
          const suggestions = lookupSuggestions(reducerMap, rule.topic);
          const listId = `lookups-${i}`;
          const update = (r: Partial<RuleState>) => setRules((x) => x.map((y, j) => (j === i ? { ...y, ...r } : y)));
          return (
            <fieldset
              key={i}
              id={`engine-rule-${i}`}
              className="flex scroll-mt-4 flex-col gap-3 rounded-lg border border-gray-200 bg-white p-3"
            >
              <legend className="px-1 font-semibold">Rule {i + 1}</legend>
              <datalist id={listId}>
                {suggestions.map((s) => (
                  <option key={s} value={s} />
                ))}
              </datalist>
              <div className="flex flex-wrap items-center gap-3">
                <NamedSelect
                  label={`Rule ${i + 1}: applies to`}
                  value={rule.topic}
                  options={engineOptions("ruleTopics")}
                  onChange={(topic) =>
                    update({
                      topic: topic as RuleState["topic"],
                      then: rule.then.filter((e) => effectOption(String(e.action))?.topic === topic),
                    })
                  }
                />
                <button type="button" className={`${buttonClass} ml-auto`} onClick={() => setRules((x) => x.filter((_, j) => j !== i))}>
                  Remove rule {i + 1}
                </button>
              </div>
              <p className="text-sm font-medium">If</p>
              <ConditionEditor
                node={rule.condition}
                onChange={(condition) => update({ condition })}
                suggestions={suggestions}
                label={`Rule ${i + 1} condition`}
                listId={listId}
              />
              <p className="text-sm font-medium">Then</p>
              {rule.then.map((effect, k) => (
                <EffectEditor
                  key={k}
                  label={`Rule ${i + 1}, effect ${k + 1}`}
                  topic={rule.topic}
                  effect={effect}
                  onChange={(e) => update({ then: rule.then.map((x, j) => (j === k ? e : x)) })}
                  onRemove={rule.then.length > 1 ? () => update({ then: rule.then.filter((_, j) => j !== k) }) : undefined}
                />
              ))}
              <button
                type="button"
                className={`${buttonClass} self-start`}
                onClick={() =>
                  update({
                    then: [
                      ...rule.then,
                      rule.topic === "user" ? { action: "promote_user", workflow_id: "" } : { action: "retire_subject", reason: "other" },
                    ],
                  })
                }
              >
                Add an effect<span className="sr-only"> to rule {i + 1}</span>
              </button>
            </fieldset>
          );
        })}
      </Section>

      <DryRunPanel workflowId={workflowId} config={wire} />

      <details className="rounded border border-gray-200 bg-white p-3">
        <summary className="cursor-pointer text-sm font-medium">Configuration as JSON</summary>
        <pre data-testid="engine-json" className="mt-2 overflow-x-auto text-xs">
          {wire.ok ? JSON.stringify(wire.value, null, 2) : wire.message}
        </pre>
      </details>

      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`rounded border p-3 text-sm ${MESSAGE_STYLES[message.kind]}`}>
          {message.text}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={saving}
          className="rounded bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
        >
          {saving ? "Saving…" : "Save configuration"}
        </button>
        <button type="button" className={buttonClass} onClick={() => load(loaded.data ?? null)}>
          Discard changes
        </button>
      </div>
    </form>
  );
}

function freshKey(rows: Row[], base: string): string {
  const taken = new Set(rows.map((r) => r.key));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

function KeyedCard({
  what,
  row,
  index,
  types,
  onChange,
  onRemove,
  children,
}: {
  what: string;
  row: Row;
  index: number;
  types: "extractorTypes" | "reducerTypes";
  onChange(r: Row): void;
  onRemove(): void;
  children: ReactNode;
}) {
  const name = `${what} ${index + 1}`;
  return (
    <fieldset
      id={`engine-${what.toLowerCase()}-${index}`}
      className="flex scroll-mt-4 flex-col gap-3 rounded-lg border border-gray-200 bg-white p-3"
    >
      <legend className="px-1 font-semibold">
        {name}: {row.key || "(no key)"}
      </legend>
      <div className="flex flex-wrap items-end gap-3">
        <TextInput label={`${name} key`} value={row.key} onChange={(key) => onChange({ ...row, key })} />
        <NamedSelect
          label={`${name} type`}
          value={String(row.config.type)}
          options={engineOptions(types)}
          onChange={(type) => onChange({ ...row, config: keepGeneric(row.config, type) })}
        />
        <button type="button" className={`${buttonClass} ml-auto`} onClick={onRemove}>
          Remove {what.toLowerCase()} {row.key}
        </button>
      </div>
      {children}
    </fieldset>
  );
}

/** On a type change, keep the fields every type shares; drop the old type's own. */
function keepGeneric(config: Config, type: string): Config {
  const generic = ["task_key", "if_missing", "minimum_workflow_version", "topic", "reduction_mode", "filters", "grouping"];
  return { type, ...Object.fromEntries(Object.entries(config).filter(([k]) => generic.includes(k))) };
}

const set = (config: Config, key: string, value: unknown): Config => {
  const next = { ...config };
  if (value === "" || value === undefined) delete next[key];
  else next[key] = value;
  return next;
};

function ExtractorFields({ row, taskKeys, onChange }: { row: Row; taskKeys: { key: string; type: string }[]; onChange(c: Config): void }) {
  const c = row.config;
  const listId = `tasks-${row.key}`;
  return (
    <div className="flex flex-wrap gap-3">
      <datalist id={listId}>
        {taskKeys.map((t) => (
          <option key={t.key} value={t.key}>{`${t.key} (${t.type})`}</option>
        ))}
      </datalist>
      {c.type !== "external" && c.type !== "pluck_field" && (
        <TextInput
          label={`${row.key}: task key`}
          value={String(c.task_key ?? "")}
          list={listId}
          onChange={(v) => onChange(set(c, "task_key", v))}
        />
      )}
      {c.type === "survey" && (
        <TextInput
          label={`${row.key}: "nothing here" choice`}
          value={String(c.nothing_here_choice ?? "")}
          onChange={(v) => onChange(set(c, "nothing_here_choice", v))}
        />
      )}
      {c.type === "shape" && (
        <>
          <NamedSelect
            label={`${row.key}: shape`}
            value={String(c.shape ?? "point")}
            options={engineOptions("shapes")}
            onChange={(v) => onChange(set(c, "shape", v))}
          />
          <TextInput
            label={`${row.key}: tool index`}
            type="number"
            value={c.tool_index === undefined ? "" : String(c.tool_index)}
            onChange={(v) => onChange(set(c, "tool_index", v === "" ? undefined : Number(v)))}
          />
        </>
      )}
      {c.type === "external" && (
        <TextInput label={`${row.key}: HTTPS URL`} value={String(c.url ?? "")} onChange={(v) => onChange(set(c, "url", v))} />
      )}
      {c.type === "pluck_field" && (
        <JsonField
          label={`${row.key}: field map (name → JSONPath)`}
          value={c.field_map ?? { field: "$.metadata.key" }}
          onChange={(v) => onChange(set(c, "field_map", v))}
        />
      )}
      <NamedSelect
        label={`${row.key}: if the task is missing`}
        value={String(c.if_missing ?? "error")}
        options={engineOptions("ifMissing")}
        onChange={(v) => onChange(set(c, "if_missing", v))}
      />
      <TextInput
        label={`${row.key}: minimum workflow version`}
        value={String(c.minimum_workflow_version ?? "")}
        onChange={(v) => onChange(set(c, "minimum_workflow_version", v))}
      />
    </div>
  );
}

function ReducerFields({ row, extractorKeys, onChange }: { row: Row; extractorKeys: string[]; onChange(c: Config): void }) {
  const c = row.config;
  const filters = (c.filters ?? {}) as Config;
  const setFilter = (key: string, value: unknown) => onChange(set(c, "filters", set(filters, key, value)));
  const grouping = c.grouping as Config | undefined;
  const chosen = new Set(
    Array.isArray(filters.extractor_keys)
      ? (filters.extractor_keys as string[])
      : filters.extractor_keys
        ? [String(filters.extractor_keys)]
        : [],
  );
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-3">
        <NamedSelect
          label={`${row.key}: reduce by`}
          value={String(c.topic ?? "reduce_by_subject")}
          options={engineOptions("reducerTopics")}
          onChange={(v) => onChange(set(c, "topic", v))}
        />
        <NamedSelect
          label={`${row.key}: mode`}
          value={String(c.reduction_mode ?? "default_reduction")}
          options={engineOptions("reductionModes")}
          onChange={(v) => onChange(set(c, "reduction_mode", v))}
        />
        {c.type === "summary_stats" && (
          <TextInput
            label={`${row.key}: field to summarise`}
            value={String(c.summarize_field ?? "")}
            onChange={(v) => onChange(set(c, "summarize_field", v))}
          />
        )}
        {c.type === "unique_count" && (
          <TextInput label={`${row.key}: field`} value={String(c.field ?? "")} onChange={(v) => onChange(set(c, "field", v))} />
        )}
        {c.type === "rectangle" && (
          <>
            <TextInput
              label={`${row.key}: eps`}
              type="number"
              value={c.eps === undefined ? "" : String(c.eps)}
              onChange={(v) => onChange(set(c, "eps", v === "" ? undefined : Number(v)))}
            />
            <TextInput
              label={`${row.key}: min samples`}
              type="number"
              value={c.min_samples === undefined ? "" : String(c.min_samples)}
              onChange={(v) => onChange(set(c, "min_samples", v === "" ? undefined : Number(v)))}
            />
          </>
        )}
        {c.type === "queue" && (
          <>
            <TextInput
              label={`${row.key}: queue URL`}
              value={String(c.queue_url ?? "")}
              onChange={(v) => onChange(set(c, "queue_url", v))}
            />
            <TextInput
              label={`${row.key}: queue name`}
              value={String(c.queue_name ?? "")}
              onChange={(v) => onChange(set(c, "queue_name", v))}
            />
          </>
        )}
        {c.type === "external" && (
          <TextInput label={`${row.key}: HTTPS URL`} value={String(c.url ?? "")} onChange={(v) => onChange(set(c, "url", v))} />
        )}
      </div>
      {c.type === "summary_stats" && (
        <fieldset className="flex flex-wrap gap-3 text-sm">
          <legend className="font-medium">{row.key}: operations</legend>
          {O.summaryOperations.map((op) => {
            const ops = (c.operations as string[] | undefined) ?? [];
            return (
              <label key={op} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={ops.includes(op)}
                  onChange={(e) => onChange(set(c, "operations", e.target.checked ? [...ops, op] : ops.filter((o) => o !== op)))}
                />
                {ENGINE_LABELS.summaryOperations[op]}
                <span className="font-mono text-xs text-gray-600">({op})</span>
              </label>
            );
          })}
        </fieldset>
      )}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">Filters and grouping</summary>
        <div className="mt-2 flex flex-col gap-3">
          {extractorKeys.length > 0 && (
            <fieldset className="flex flex-wrap gap-3">
              <legend className="font-medium">{row.key}: only extracts of (none ticked: all)</legend>
              {extractorKeys.map((k) => (
                <label key={k} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={chosen.has(k)}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.target.checked) next.add(k);
                      else next.delete(k);
                      setFilter("extractor_keys", next.size ? [...next] : undefined);
                    }}
                  />
                  {k}
                </label>
              ))}
            </fieldset>
          )}
          <div className="flex flex-wrap gap-3">
            <NamedSelect
              label={`${row.key}: repeated classifications`}
              value={String(filters.repeated_classifications ?? "keep_first")}
              options={engineOptions("repeatedClassifications")}
              onChange={(v) => setFilter("repeated_classifications", v)}
            />
            <NamedSelect
              label={`${row.key}: training subjects`}
              value={String(filters.training_behavior ?? "ignore_training")}
              options={engineOptions("trainingBehaviors")}
              onChange={(v) => setFilter("training_behavior", v)}
            />
            <NamedSelect
              label={`${row.key}: empty extracts`}
              value={String(filters.empty_extracts ?? "keep_all")}
              options={engineOptions("emptyExtracts")}
              onChange={(v) => setFilter("empty_extracts", v)}
            />
            <TextInput
              label={`${row.key}: from`}
              type="number"
              value={String(filters.from ?? 0)}
              onChange={(v) => setFilter("from", v === "" ? undefined : Number(v))}
            />
            <TextInput
              label={`${row.key}: to`}
              type="number"
              value={String(filters.to ?? -1)}
              onChange={(v) => setFilter("to", v === "" ? undefined : Number(v))}
            />
          </div>
          <div className="flex flex-wrap gap-3">
            <TextInput
              label={`${row.key}: group by (extractor.field)`}
              value={String(grouping?.field_name ?? "")}
              onChange={(v) => onChange(set(c, "grouping", v ? { ...(grouping ?? {}), field_name: v } : undefined))}
            />
            {grouping && (
              <NamedSelect
                label={`${row.key}: without that field`}
                value={String(grouping.if_missing ?? "ignore")}
                options={engineOptions("groupingIfMissing")}
                onChange={(v) => onChange(set(c, "grouping", { ...grouping, if_missing: v }))}
              />
            )}
          </div>
        </div>
      </details>
    </div>
  );
}

function JsonField({ label, value, onChange }: { label: string; value: unknown; onChange(v: unknown): void }) {
  const [text, setText] = useState(JSON.stringify(value, null, 1));
  const [bad, setBad] = useState(false);
  return (
    <label className="flex min-w-64 flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <textarea
        className={`${inputClass} font-mono`}
        rows={3}
        value={text}
        aria-invalid={bad}
        onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad && <span className="text-red-700">Not valid JSON yet.</span>}
    </label>
  );
}

function EffectEditor({
  label,
  topic,
  effect,
  onChange,
  onRemove,
}: {
  label: string;
  topic: "subject" | "user";
  effect: Config;
  onChange(e: Config): void;
  onRemove?: () => void;
}) {
  const action = String(effect.action);
  const def = effectOption(action);
  const actions = EFFECT_OPTIONS.filter((d) => d.topic === topic);
  return (
    <div role="group" aria-label={label} className="flex flex-wrap items-end gap-3 rounded bg-gray-50 p-2">
      <NamedSelect
        label={label}
        value={action}
        options={actions.map((d) => ({ value: d.action, label: d.label }))}
        onChange={(next) =>
          onChange(
            next === "retire_subject" ? { action: next, reason: "consensus" } : { action: next, [effectOption(next)!.field![0]]: "" },
          )
        }
      />
      {action === "retire_subject" && (
        <NamedSelect
          label={`${label}: reason`}
          value={String(effect.reason ?? "other")}
          options={engineOptions("retirementReasons")}
          onChange={(reason) => onChange({ ...effect, reason })}
        />
      )}
      {def?.field && (
        <TextInput
          label={`${label}: ${def.field[1]}`}
          value={String(effect[def.field[0]] ?? "")}
          onChange={(v) => onChange({ ...effect, [def.field![0]]: v })}
        />
      )}
      {onRemove && (
        <button type="button" className={buttonClass} onClick={onRemove}>
          Remove<span className="sr-only"> {label}</span>
        </button>
      )}
    </div>
  );
}
