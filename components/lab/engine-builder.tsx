"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type Dispatch, useMemo, useReducer } from "react";
import { lookupSuggestions } from "@/lib/lab/condition-model";
import { lazyPart } from "@/components/classifier/lazy-part";
import { ApiRequestError, request, requestOrNull } from "@/components/ui/api-client";
import { Section, buttonClass, primaryButtonClass } from "@/components/ui/controls";
import { NamedSelect } from "@/components/ui/named-select";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { effectOption } from "@/lib/lab/engine-options";
import { engineOptions } from "@/lib/lab/labels";
import {
  type EngineDraft,
  type EngineDraftAction,
  engineDraft,
  engineDraftReducer,
  engineWire,
  type RuleDraft,
  type RuleTopic,
  reducerTypes,
} from "@/lib/lab/engine-draft";
import { ConditionEditor } from "./condition-editor";
import { EffectEditor, ExtractorFields, KeyedCard, ReducerFields } from "./engine-fields";
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

/** The engine's API answers `{"workflow": {...}}`. */
const unwrap = (body: EngineWorkflowAnswer | null): EngineWorkflowRecord => (body?.workflow ?? body) as EngineWorkflowRecord;

type TaskKeys = { key: string; type: string }[];

export function EngineBuilder({
  workflowId,
  taskKeys,
  configured,
}: {
  workflowId: number;
  taskKeys: TaskKeys;
  /** Whether the workflow has a configuration yet (the page knows): none is not asked for, a 404 the browser would log. */
  configured: boolean;
}) {
  const queryKey = ["engine-workflow", workflowId, configured];
  const loaded = useQuery({
    queryKey,
    queryFn: async () => {
      if (!configured) return null;
      const body = await requestOrNull<EngineWorkflowAnswer>("engine", `/workflows/${workflowId}`);
      return body ? body.workflow : null; // null: not in the engine yet
    },
    staleTime: Infinity,
  });
  const client = useQueryClient();
  return (
    <QueryState query={loaded} what="decision engine configuration">
      {loaded.data !== undefined && (
        <EngineForm
          key={workflowId}
          workflowId={workflowId}
          taskKeys={taskKeys}
          stored={loaded.data}
          onSaved={(saved) => client.setQueryData(queryKey, saved)}
        />
      )}
    </QueryState>
  );
}

/** The builder's form, its draft started from the stored configuration (`stored`, null for none); a save sets both again. */
function EngineForm({
  workflowId,
  taskKeys,
  stored,
  onSaved,
}: {
  workflowId: number;
  taskKeys: TaskKeys;
  stored: EngineWorkflowRecord | null;
  onSaved(saved: EngineWorkflowRecord): void;
}) {
  const [draft, dispatch] = useReducer(engineDraftReducer, stored, engineDraft);
  const { busy, outcome, run } = useAction();
  const wire = useMemo(() => engineWire(workflowId, draft), [workflowId, draft]);
  const save = () =>
    run(async () => {
      if (!wire.ok) throw new Error(wire.message);
      let body: EngineWorkflowAnswer;
      try {
        body = await request<EngineWorkflowAnswer>("engine", draft.exists ? `/workflows/${workflowId}` : "/workflows", {
          method: draft.exists ? "PUT" : "POST",
          json: { workflow: wire.value },
        });
      } catch (err) {
        throw err instanceof ApiRequestError ? err : new Error(`Could not reach the server: ${(err as Error).message}`);
      }
      const saved = unwrap(body);
      dispatch({ type: "load", stored: saved });
      onSaved(saved);
      const warnings = body?.warnings ?? [];
      return warnings.length
        ? { kind: "warning", text: `Saved, with warnings. ${warnings.join("; ")}` }
        : "Saved. New classifications are processed with this configuration.";
    });
  const addExtractor = () => dispatch({ type: "addExtractor", taskKey: taskKeys[0] });
  const addReducer = () => dispatch({ type: "addReducer" });
  const addRule = () => dispatch({ type: "addRule" });
  const extractorKeys = draft.extractors.map((r) => r.key);

  return (
    <form
      className="flex flex-col gap-6"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {!draft.exists && (
        <p className="rounded bg-brand-50 p-3 text-sm">
          This workflow is not in the decision engine yet. Add extractors, reducers and rules, then save.
        </p>
      )}
      <div className="flex flex-wrap gap-4">
        <NamedSelect
          label="Status"
          value={draft.status}
          options={engineOptions("statuses")}
          onChange={(status) => dispatch({ type: "status", status })}
        />
        <NamedSelect
          label="Rules applied"
          value={draft.rulesApplied}
          options={engineOptions("rulesApplied")}
          onChange={(rulesApplied) => dispatch({ type: "rulesApplied", rulesApplied })}
        />
      </div>
      {wire.ok ? (
        <EngineFlowGraph
          config={wire.value}
          onAdd={(kind) => ({ extractor: addExtractor, reducer: addReducer, rule: addRule })[kind]()}
          onConnect={(link) => dispatch({ type: "connect", link })}
          onDisconnect={(link) => dispatch({ type: "disconnect", link })}
          onOpen={(id) => openNode(draft, id)}
          onRemove={(id) => dispatch({ type: "removeNode", id })}
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
        {draft.extractors.map((row, i) => (
          <KeyedCard
            key={i}
            what="Extractor"
            row={row}
            index={i}
            types="extractorTypes"
            onChange={(r) => dispatch({ type: "setRow", list: "extractors", index: i, row: r })}
            onRemove={() => dispatch({ type: "removeRow", list: "extractors", index: i })}
          >
            <ExtractorFields
              row={row}
              taskKeys={taskKeys}
              onChange={(config) => dispatch({ type: "setRow", list: "extractors", index: i, row: { ...row, config } })}
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
        {draft.reducers.map((row, i) => (
          <KeyedCard
            key={i}
            what="Reducer"
            row={row}
            index={i}
            types="reducerTypes"
            onChange={(r) => dispatch({ type: "setRow", list: "reducers", index: i, row: r })}
            onRemove={() => dispatch({ type: "removeRow", list: "reducers", index: i })}
          >
            <ReducerFields
              row={row}
              extractorKeys={extractorKeys}
              onChange={(config) => dispatch({ type: "setRow", list: "reducers", index: i, row: { ...row, config } })}
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
        {draft.rules.map((rule, i) => (
          <RuleCard key={i} index={i} rule={rule} suggestions={lookupSuggestions(reducerTypes(draft), rule.topic)} dispatch={dispatch} />
        ))}
      </Section>

      <DryRunPanel workflowId={workflowId} config={wire} />

      <details className="rounded border border-gray-200 bg-white p-3">
        <summary className="cursor-pointer text-sm font-medium">Configuration as JSON</summary>
        <pre data-testid="engine-json" className="mt-2 overflow-x-auto text-xs">
          {wire.ok ? JSON.stringify(wire.value, null, 2) : wire.message}
        </pre>
      </details>

      <StatusMessage outcome={outcome} />
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          {busy ? "Saving…" : "Save configuration"}
        </button>
        <button type="button" className={buttonClass} onClick={() => dispatch({ type: "load", stored })}>
          Discard changes
        </button>
      </div>
    </form>
  );
}

/** A canvas node's form: scrolled to, its first field focused. */
function openNode(draft: EngineDraft, id: string) {
  const [kind, key, rule] = [id.slice(0, id.indexOf(":")), id.slice(id.indexOf(":") + 1), id.split(":")[1]];
  const formId =
    kind === "x"
      ? `engine-extractor-${draft.extractors.findIndex((r) => r.key === key)}`
      : kind === "r"
        ? `engine-reducer-${draft.reducers.findIndex((r) => r.key === key)}`
        : `engine-rule-${rule}`;
  const form = document.getElementById(formId);
  form?.scrollIntoView({ block: "start" });
  form?.querySelector<HTMLElement>("input, select, textarea")?.focus({ preventScroll: true });
}

/** One rule: what it applies to, its condition (suggesting the reducers' lookups), and its effects. */
function RuleCard({
  index: i,
  rule,
  suggestions,
  dispatch,
}: {
  index: number;
  rule: RuleDraft;
  suggestions: string[];
  dispatch: Dispatch<EngineDraftAction>;
}) {
  const listId = `lookups-${i}`;
  const update = (r: Partial<RuleDraft>) => dispatch({ type: "setRule", index: i, rule: r });
  return (
    <fieldset id={`engine-rule-${i}`} className="flex scroll-mt-4 flex-col gap-3 rounded-lg border border-gray-200 bg-white p-3">
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
            update({ topic: topic as RuleTopic, then: rule.then.filter((e) => effectOption(String(e.action))?.topic === topic) })
          }
        />
        <button type="button" className={`${buttonClass} ml-auto`} onClick={() => dispatch({ type: "removeRule", index: i })}>
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
}
