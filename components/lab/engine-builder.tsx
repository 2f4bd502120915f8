"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type Dispatch, useMemo, useReducer, useState } from "react";
import { conditionSummary } from "@/lib/lab/engine-flow";
import { conditionFromSentence, type OutputField, ruleFields, sentenceFromCondition, sentenceText } from "@/lib/lab/condition-sentence";
import { lookupSuggestions } from "@/lib/lab/condition-model";
import { taskChoices } from "@/lib/lab/task-names";
import type { TaskDef } from "@/lib/tasks/types";
import { lazyPart } from "@/components/classifier/lazy-part";
import { ApiRequestError, request, requestOrNull } from "@/components/ui/api-client";
import { buttonClass, primaryButtonClass, Select } from "@/components/ui/controls";
import { NamedSelect } from "@/components/ui/named-select";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { type EffectTargets, effectDetail, effectOption } from "@/lib/lab/engine-options";
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
import { AddMenu } from "./add-menu";
import { ConditionEditor } from "./condition-editor";
import { ConditionSentenceEditor } from "./condition-sentence-editor";
import { EffectEditor, EffectTargetsProvider, ExtractorFields, KeyedCard, ReducerFields, useEffectTargets } from "./engine-fields";
import { focusCanvasNode, NodePanel } from "./node-panel";
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

/** The workflow's tasks, first task first: their keys, definitions (question, answers) and so their names. */
export type EngineTasks = { key: string; task: TaskDef }[];

export function EngineBuilder({
  workflowId,
  tasks,
  configured,
  targets = {},
}: {
  workflowId: number;
  tasks: EngineTasks;
  /** Whether the workflow has a configuration yet (the page knows): none is not asked for, a 404 the browser would log. */
  configured: boolean;
  /** The records effects may name, picked by name (the project's subject sets and other workflows). */
  targets?: EffectTargets;
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
        <EffectTargetsProvider value={targets}>
          <EngineForm
            key={workflowId}
            workflowId={workflowId}
            tasks={tasks}
            stored={loaded.data}
            onSaved={(saved) => client.setQueryData(queryKey, saved)}
          />
        </EffectTargetsProvider>
      )}
    </QueryState>
  );
}

/** The builder's form, its draft started from the stored configuration (`stored`, null for none); a save sets both again. */
function EngineForm({
  workflowId,
  tasks,
  stored,
  onSaved,
}: {
  workflowId: number;
  tasks: EngineTasks;
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
          This workflow is not in the decision engine yet. Add extractors, reducers and rules with the canvas's “+ Add” menu, then save.
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
      <EngineCanvas draft={draft} dispatch={dispatch} tasks={tasks} wire={wire} />

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

/** The part of the configuration open in the panel: an extractor, a reducer or a rule, by its place in its list. */
type Part = { list: "extractors" | "reducers" | "rules"; index: number };

/** A canvas node's part: "x:<key>", "r:<key>", "rule:<i>" and its effects "effect:<i>:<k>". */
function partOf(draft: EngineDraft, id: string): Part | null {
  const key = id.slice(id.indexOf(":") + 1);
  if (id.startsWith("x:")) return { list: "extractors", index: draft.extractors.findIndex((r) => r.key === key) };
  if (id.startsWith("r:")) return { list: "reducers", index: draft.reducers.findIndex((r) => r.key === key) };
  if (id.startsWith("rule:") || id.startsWith("effect:")) return { list: "rules", index: Number(id.split(":")[1]) };
  return null;
}

/** A part's canvas node. */
const nodeOf = (draft: EngineDraft, p: Part) =>
  p.list === "rules" ? `rule:${p.index}` : `${p.list === "extractors" ? "x" : "r"}:${draft[p.list][p.index]?.key}`;

/**
 * The flow canvas with its "+ Add" menu, and the selected part's form in a panel beside it (below it on a
 * narrow screen): a click or Enter on a node, something added, or the panel's list selects a part and moves
 * the focus to its form; "Back to the canvas" returns to its node.
 */
function EngineCanvas({
  draft,
  dispatch,
  tasks,
  wire,
}: {
  draft: EngineDraft;
  dispatch: Dispatch<EngineDraftAction>;
  tasks: EngineTasks;
  wire: ReturnType<typeof engineWire>;
}) {
  const [part, setPart] = useState<Part | null>(null);
  const [opened, setOpened] = useState(0);
  const open = (p: Part | null) => {
    setPart(p);
    setOpened((n) => n + 1);
  };
  const names = taskChoices(tasks);
  const targets = useEffectTargets();
  const fieldsOf = (topic: RuleTopic) => ruleFields(draft.reducers, draft.extractors, tasks, topic);
  const rule = part?.list === "rules" ? part.index : draft.rules.length - 1;
  const add = (list: Part["list"]) => {
    if (list === "extractors")
      dispatch({ type: "addExtractor", taskKey: tasks[0] && { key: tasks[0].key, type: String(tasks[0].task.type) } });
    else dispatch({ type: list === "reducers" ? "addReducer" : "addRule" });
    open({ list, index: draft[list].length });
  };
  const menu = (
    <AddMenu
      label="Add"
      items={[
        { id: "x", label: "Extractor (reads a task's answers)", onSelect: () => add("extractors") },
        { id: "r", label: "Reducer (combines them per subject)", onSelect: () => add("reducers") },
        { id: "rule", label: "Rule (when to act)", onSelect: () => add("rules") },
        {
          id: "effect",
          label: rule >= 0 ? `Effect (to Rule ${rule + 1})` : "Effect (add a rule first)",
          disabled: rule < 0,
          onSelect: () => {
            const r = draft.rules[rule];
            const effect = r.topic === "user" ? { action: "promote_user", workflow_id: "" } : { action: "retire_subject", reason: "other" };
            dispatch({ type: "setRule", index: rule, rule: { then: [...r.then, effect] } });
            open({ list: "rules", index: rule });
          },
        },
      ]}
    />
  );
  const describe: Record<string, { detail: string; hint: string }> = {};
  draft.rules.forEach((r, i) => {
    const s = sentenceFromCondition(r.condition, fieldsOf(r.topic));
    if (s && wire.ok)
      describe[`rule:${i}`] = {
        detail: `if ${sentenceText(s, fieldsOf(r.topic))}`,
        hint: `if ${conditionSummary(wire.value.rules_config[i]?.if)}`,
      };
  });
  draft.rules.forEach((r, i) => {
    r.then.forEach((effect, k) => {
      describe[`effect:${i}:${k}`] = effectDetail(effect, targets);
    });
  });
  draft.extractors.forEach((x) => {
    const task = names.find((n) => n.value === x.config.task_key);
    if (task) describe[`x:${x.key}`] = { detail: task.label, hint: `${x.key}: ${String(x.config.type)} on ${String(x.config.task_key)}` };
  });
  const valid = part && part.index >= 0 && part.index < draft[part.list].length ? part : null;
  const choices = [
    ...draft.extractors.map((r, i) => ({ value: `extractors:${i}`, label: `Extractor ${r.key || i + 1}` })),
    ...draft.reducers.map((r, i) => ({ value: `reducers:${i}`, label: `Reducer ${r.key || i + 1}` })),
    ...draft.rules.map((_, i) => ({ value: `rules:${i}`, label: `Rule ${i + 1}` })),
  ];
  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      {wire.ok ? (
        <EngineFlowGraph
          config={wire.value}
          addMenu={menu}
          selected={valid ? nodeOf(draft, valid) : undefined}
          describe={describe}
          onConnect={(link) => dispatch({ type: "connect", link })}
          onDisconnect={(link) => dispatch({ type: "disconnect", link })}
          onOpen={(id) => open(partOf(draft, id))}
          onRemove={(id) => dispatch({ type: "removeNode", id })}
        />
      ) : (
        <div className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          <div className="self-end">{menu}</div>
          <p>The flow is drawn again once the configuration is valid: {wire.message}</p>
        </div>
      )}
      <NodePanel
        id="engine-panel"
        title={valid ? (choices.find((c) => c.value === `${valid.list}:${valid.index}`)?.label ?? "") : "Nothing selected"}
        opened={opened}
        onBack={valid && wire.ok ? () => focusCanvasNode("engine-flow", nodeOf(draft, valid)) : undefined}
      >
        {choices.length > 0 && (
          <Select
            label="Part to edit"
            plain
            empty="(choose)"
            value={valid ? `${valid.list}:${valid.index}` : ""}
            options={choices}
            onChange={(v) => {
              const [list, index] = v.split(":");
              open(v ? { list: list as Part["list"], index: Number(index) } : null);
            }}
          />
        )}
        {valid ? (
          <PartForm part={valid} draft={draft} dispatch={dispatch} tasks={tasks} fields={fieldsOf} />
        ) : (
          <p className="text-sm text-gray-600">
            Click a node on the canvas (or Tab to it and press Enter) to edit it here, or add an extractor, a reducer or a rule with “+
            Add”.
          </p>
        )}
      </NodePanel>
    </div>
  );
}

/** The form of one part: an extractor's or reducer's card, or a rule's. */
function PartForm({
  part: { list, index: i },
  draft,
  dispatch,
  tasks,
  fields,
}: {
  part: Part;
  draft: EngineDraft;
  dispatch: Dispatch<EngineDraftAction>;
  tasks: EngineTasks;
  fields(topic: RuleTopic): OutputField[];
}) {
  if (list === "rules") {
    const rule = draft.rules[i];
    return (
      <RuleCard
        key={i}
        index={i}
        rule={rule}
        fields={fields(rule.topic)}
        suggestions={lookupSuggestions(reducerTypes(draft), rule.topic)}
        dispatch={dispatch}
      />
    );
  }
  const row = draft[list][i];
  const setConfig = (config: Record<string, unknown>) => dispatch({ type: "setRow", list, index: i, row: { ...row, config } });
  return (
    <KeyedCard
      key={`${list}-${i}`}
      what={list === "extractors" ? "Extractor" : "Reducer"}
      row={row}
      index={i}
      types={list === "extractors" ? "extractorTypes" : "reducerTypes"}
      onChange={(r) => dispatch({ type: "setRow", list, index: i, row: r })}
      onRemove={() => dispatch({ type: "removeRow", list, index: i })}
    >
      {list === "extractors" ? (
        <ExtractorFields row={row} tasks={taskChoices(tasks)} onChange={setConfig} />
      ) : (
        <ReducerFields row={row} extractorKeys={draft.extractors.map((r) => r.key)} onChange={setConfig} />
      )}
    </KeyedCard>
  );
}

/**
 * One rule: what it applies to, its condition as a sentence (the reducers' outputs by name) or, for what a
 * sentence cannot say, in the advanced blocks or JSON; and its effects.
 */
function RuleCard({
  index: i,
  rule,
  fields,
  suggestions,
  dispatch,
}: {
  index: number;
  rule: RuleDraft;
  fields: OutputField[];
  suggestions: string[];
  dispatch: Dispatch<EngineDraftAction>;
}) {
  const listId = `lookups-${i}`;
  const update = (r: Partial<RuleDraft>) => dispatch({ type: "setRule", index: i, rule: r });
  const sentence = sentenceFromCondition(rule.condition, fields);
  const [advanced, setAdvanced] = useState(sentence === null);
  const asSentence = !advanced && sentence !== null;
  return (
    <fieldset id={`engine-rule-${i}`} className="flex flex-col gap-3">
      <legend className="sr-only">Rule {i + 1}</legend>
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
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="font-medium">Rule {i + 1}: write the condition</legend>
        <label className="flex items-center gap-1">
          <input type="radio" checked={asSentence} disabled={sentence === null} onChange={() => setAdvanced(false)} />
          As a sentence
        </label>
        <label className="flex items-center gap-1">
          <input type="radio" checked={!asSentence} onChange={() => setAdvanced(true)} />
          Advanced (blocks or JSON)
        </label>
      </fieldset>
      {sentence === null && (
        <p className="text-sm text-gray-600">This condition says more than a sentence can; it is edited in the advanced blocks.</p>
      )}
      {asSentence ? (
        <ConditionSentenceEditor
          sentence={sentence}
          fields={fields}
          label={`Rule ${i + 1} condition`}
          onChange={(s) => update({ condition: conditionFromSentence(s, fields) })}
        />
      ) : (
        <ConditionEditor
          node={rule.condition}
          onChange={(condition) => update({ condition })}
          suggestions={suggestions}
          label={`Rule ${i + 1} condition`}
          listId={listId}
        />
      )}
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
    </fieldset>
  );
}
