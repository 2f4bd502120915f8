"use client";
import { createContext, useContext, useState, type ReactNode } from "react";
import { Select, TextInput, buttonClass, inputClass } from "@/components/ui/controls";
import { NamedSelect } from "@/components/ui/named-select";
import { EFFECT_OPTIONS, ENGINE_OPTIONS as O, type EffectTargets, effectOption } from "@/lib/lab/engine-options";
import { ENGINE_LABELS, engineOptions } from "@/lib/lab/labels";
import type { KeyedRow as Row } from "@/lib/lab/engine-draft";

// The engine builder's forms of one extractor, reducer or rule effect (components/lab/engine-builder.tsx
// lays them out): an extractor's or reducer's key and type around its type's own fields.

type Config = Record<string, unknown>;

/**
 * What an effect may name, by the effect's field: the project's subject sets (`subject_set_id`) and its other
 * workflows (`workflow_id`), picked by name. A field without choices (a collection, a URL) is typed.
 */
const EffectTargetsContext = createContext<EffectTargets>({});
export const EffectTargetsProvider = EffectTargetsContext.Provider;
export const useEffectTargets = () => useContext(EffectTargetsContext);

export function KeyedCard({
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

export function ExtractorFields({
  row,
  tasks,
  onChange,
}: {
  row: Row;
  tasks: { value: string; label: string }[];
  onChange(c: Config): void;
}) {
  const c = row.config;
  const key = String(c.task_key ?? "");
  // A task the workflow no longer has stays chosen, named by its key, until another is picked.
  const options = key && !tasks.some((t) => t.value === key) ? [...tasks, { value: key, label: `${key} (not in this workflow)` }] : tasks;
  return (
    <div className="flex flex-wrap gap-3">
      {c.type !== "external" && c.type !== "pluck_field" && (
        <div className="flex flex-col gap-0.5" title={key ? `Task key: ${key}` : undefined}>
          <Select
            label={`${row.key}: the task it reads`}
            value={key}
            options={options}
            empty="(choose a task)"
            onChange={(v) => onChange(set(c, "task_key", v))}
          />
        </div>
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

export function ReducerFields({ row, extractorKeys, onChange }: { row: Row; extractorKeys: string[]; onChange(c: Config): void }) {
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

/** An effect's one field: a choice among the project's records when there are some (a stored id outside them kept as one more), else typed. */
function EffectTarget({ label, field, effect, onChange }: { label: string; field: string; effect: Config; onChange(e: Config): void }) {
  const choices = useEffectTargets()[field];
  const value = String(effect[field] ?? "");
  const set = (v: string) => onChange({ ...effect, [field]: v });
  if (!choices) return <TextInput label={label} value={value} onChange={set} />;
  const options =
    value && !choices.some((c) => c.value === value) ? [...choices, { value, label: `#${value} (not in this project)` }] : choices;
  return <Select label={label} value={value} options={options} empty="Choose…" onChange={set} />;
}

export function EffectEditor({
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
      {def?.field && <EffectTarget label={`${label}: ${def.field[1]}`} field={def.field[0]} effect={effect} onChange={onChange} />}
      {onRemove && (
        <button type="button" className={buttonClass} onClick={onRemove}>
          Remove<span className="sr-only"> {label}</span>
        </button>
      )}
    </div>
  );
}
