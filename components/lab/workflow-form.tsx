"use client";
import { useRouter } from "next/navigation";
import { type Dispatch, type SetStateAction, useState } from "react";
import { apiPost, apiPutFresh } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { freshKey, removeTask, TASK_TYPES, taskTemplate, tasksFromDrafts, type TaskDef, type TaskDraft } from "@/lib/lab/task-editing";
import { lazyPart } from "@/components/classifier/lazy-part";
import { buttonClass, inputClass, primaryButtonClass, Select } from "@/components/ui/controls";
import { TaskEditor } from "./task-editors/task-editor";
import { focusCanvasNode, NodePanel } from "./node-panel";
import { taskChoices, taskName } from "@/lib/lab/task-names";
import type { TaskChoice } from "@/components/tasks/editor-common";
import type { Records, WorkflowRecord } from "@/components/ui/wire-types";

// The graph and the preview are only drawn once a workflow has tasks: chunks of their own.
const BranchingGraph = lazyPart(
  () => import("./branching-graph").then((m) => m.BranchingGraph),
  <p className="text-sm text-gray-600">Loading the graph…</p>,
);
const WorkflowPreview = lazyPart(
  () => import("./workflow-preview").then((m) => m.WorkflowPreview),
  <p className="text-sm text-gray-600">Loading the preview…</p>,
);

export interface EditedWorkflow {
  id: number;
  displayName: string;
  active: boolean;
  retirement: { criteria?: string; options?: { count?: number } };
  drafts: TaskDraft[];
  configuration: Record<string, unknown>;
  subjectSetIds: number[];
}

export interface LabSubjectSet {
  id: number;
  displayName: string;
  count: number;
}

/**
 * A workflow in the lab: its name, retirement, whether it is active, the subject sets it shows and how
 * often each is drawn, and its tasks of every type with where each leads (drawn as a graph) and a live
 * preview. New, or an existing one edited (tasks keep their keys; the API moves its version and validates
 * the whole, its message naming what is wrong). An existing one can be copied.
 */
export function WorkflowForm({
  projectId,
  workflow,
  subjectSets = [],
  notice,
}: {
  projectId: number;
  workflow?: EditedWorkflow;
  subjectSets?: LabSubjectSet[];
  /** A message shown until the first action (the workflow just created). */
  notice?: string;
}) {
  const router = useRouter();
  const [name, setName] = useState(workflow?.displayName ?? "");
  const [active, setActive] = useState(workflow?.active ?? true);
  const [count, setCount] = useState(
    workflow ? (workflow.retirement.criteria === "never_retire" ? "" : String(workflow.retirement.options?.count ?? 15)) : "15",
  );
  const [drafts, setDrafts] = useState<TaskDraft[]>(
    workflow?.drafts.length ? workflow.drafts : [{ key: "T0", task: taskTemplate("single") }],
  );
  const config = workflow?.configuration ?? {};
  const [sets, setSets] = useState<SetChoices>(() => ({
    linked: workflow?.subjectSetIds ?? subjectSets.map((s) => s.id),
    chances: Object.fromEntries(
      Object.entries((config.subject_set_chances ?? {}) as Record<string, number>).map(([k, v]) => [k, String(v)]),
    ),
    training: ((config.training_set_ids ?? []) as unknown[]).map(Number),
    trainingChances: ((config.training_chances ?? []) as unknown[]).join(", "),
    trainingDefault: config.training_default_chance === undefined ? "" : String(config.training_default_chance),
  }));
  const { linked, chances, training: trainingSets, trainingChances, trainingDefault } = sets;
  const [publicGold, setPublicGold] = useState(config.public_gold_standard === true);
  const { busy, outcome, run } = useAction();
  const formId = workflow ? `workflow-${workflow.id}` : "new-workflow";

  const fields = () => {
    const setChances = Object.fromEntries(
      linked.filter((id) => chances[id] !== undefined && chances[id] !== "").map((id) => [String(id), Number(chances[id])]),
    );
    const configuration = { ...(workflow?.configuration ?? {}) };
    if (Object.keys(setChances).length) configuration.subject_set_chances = setChances;
    else delete configuration.subject_set_chances;
    if (publicGold) configuration.public_gold_standard = true;
    else delete configuration.public_gold_standard;
    // Training sets (served to newer volunteers by the chances below, lib/domain/subject-queue.ts).
    const training = trainingSets.filter((id) => linked.includes(id));
    for (const k of ["training_set_ids", "training_chances", "training_default_chance"]) delete configuration[k];
    if (training.length) {
      configuration.training_set_ids = training;
      configuration.training_chances = trainingChances
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean)
        .map(Number);
      if (trainingDefault.trim()) configuration.training_default_chance = Number(trainingDefault);
    }
    return {
      display_name: name,
      tasks: tasksFromDrafts(drafts),
      first_task: drafts[0]?.key ?? "",
      retirement: count ? { criteria: "classification_count", options: { count: Number(count) } } : { criteria: "never_retire" },
      configuration,
    };
  };

  return (
    <form
      className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          if (!workflow) {
            const created = await apiPost<Records<"workflows", WorkflowRecord>>("/workflows", {
              workflows: { ...fields(), links: { project: String(projectId), subject_sets: linked.map(String) } },
            });
            // Its editor, with the tasks just built and a "Created" message (the lab page's form starts blank again).
            router.push(`/lab/projects/${projectId}/workflows/${created.workflows[0].id}?created=1`);
            return;
          }
          const body = await apiPutFresh<Records<"workflows", WorkflowRecord>>(`/workflows/${workflow.id}`, {
            workflows: { ...fields(), active, links: { subject_sets: linked.map(String) } },
          });
          router.refresh();
          return `Saved: version ${body.workflows[0].version}.`;
        });
      }}
    >
      <h3 className="text-lg font-semibold">{workflow ? "Workflow" : "New workflow"}</h3>
      {notice && !outcome && !busy && <StatusMessage outcome={{ kind: "ok", text: notice }} />}
      <div className="flex flex-wrap items-end gap-3">
        <Field id={workflow ? "workflow-name" : "new-workflow-name"} label="Workflow name" required value={name} onChange={setName} />
        <Field
          id={workflow ? "workflow-retirement" : "new-workflow-retirement"}
          label="Retire after this many classifications (empty: never)"
          type="number"
          min={1}
          value={count}
          onChange={setCount}
        />
        {workflow && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
            Active (volunteers can classify it)
          </label>
        )}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={publicGold} onChange={(e) => setPublicGold(e.target.checked)} />
          Public gold standard (anyone may read the reference answers, e.g. for feedback)
        </label>
      </div>

      {subjectSets.length > 0 && <SubjectSetChoices subjectSets={subjectSets} sets={sets} onChange={setSets} />}

      <TaskBoard formId={formId} drafts={drafts} onChange={setDrafts} />
      <WorkflowPreview drafts={drafts} />

      <StatusMessage outcome={outcome} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          {busy ? "Saving…" : workflow ? "Save workflow" : "Create workflow"}
        </button>
        {workflow && (
          <button
            type="button"
            disabled={busy}
            className={buttonClass}
            onClick={() =>
              run(async () => {
                const body = await apiPost<Records<"workflows", WorkflowRecord>>("/workflows", {
                  workflows: {
                    ...fields(),
                    display_name: `Copy of ${name}`,
                    active: false,
                    links: { project: String(projectId), subject_sets: linked.map(String) },
                  },
                });
                router.push(`/lab/projects/${projectId}/workflows/${body.workflows[0].id}`);
              })
            }
          >
            Copy this workflow
          </button>
        )}
      </div>
    </form>
  );
}

/** The subject sets a workflow shows, as the form edits them: chances kept as typed. */
interface SetChoices {
  linked: number[];
  /** Relative chances by set id ("" or none: by size). */
  chances: Record<string, string>;
  training: number[];
  trainingChances: string;
  trainingDefault: string;
}

/** The subject sets the workflow shows, how often each is drawn, and which are training sets (with their chances). */
function SubjectSetChoices({
  subjectSets,
  sets,
  onChange,
}: {
  subjectSets: LabSubjectSet[];
  sets: SetChoices;
  onChange(change: (sets: SetChoices) => SetChoices): void;
}) {
  const { linked, chances, training: trainingSets, trainingChances, trainingDefault } = sets;
  const toggle = (list: number[], id: number, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-gray-200 p-3 text-sm">
      <legend className="px-1 font-semibold">Subject sets</legend>
      <p className="text-gray-600">Sets are drawn by their size unless you give chances (relative weights; 0 shows a set no more).</p>
      {subjectSets.map((s) => (
        <div key={s.id} className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={linked.includes(s.id)}
              onChange={(e) => onChange((x) => ({ ...x, linked: toggle(x.linked, s.id, e.target.checked) }))}
            />
            {s.displayName} ({s.count} subjects)
          </label>
          {linked.includes(s.id) && (
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={trainingSets.includes(s.id)}
                onChange={(e) => onChange((x) => ({ ...x, training: toggle(x.training, s.id, e.target.checked) }))}
              />
              {s.displayName} is a training set
            </label>
          )}
          {linked.includes(s.id) && (
            <label className="flex items-center gap-1">
              Chance of {s.displayName}
              <input
                className={`${inputClass} w-20`}
                type="number"
                min={0}
                step="any"
                placeholder="by size"
                value={chances[s.id] ?? ""}
                onChange={(e) => onChange((x) => ({ ...x, chances: { ...x.chances, [s.id]: e.target.value } }))}
              />
            </label>
          )}
        </div>
      ))}
      {trainingSets.some((id) => linked.includes(id)) && (
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1">
            <span>Training chances by subjects seen (comma-separated, e.g. 1, 1, 0.5)</span>
            <input
              className={inputClass}
              value={trainingChances}
              onChange={(e) => onChange((x) => ({ ...x, trainingChances: e.target.value }))}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span>Training chance after that</span>
            <input
              className={`${inputClass} w-24`}
              type="number"
              min={0}
              max={1}
              step="any"
              value={trainingDefault}
              onChange={(e) => onChange((x) => ({ ...x, trainingDefault: e.target.value }))}
            />
          </label>
        </div>
      )}
    </fieldset>
  );
}

/**
 * The workflow's tasks on the branching canvas, the selected task's form in a panel beside it (below it on
 * a narrow screen): a click or Enter on a node, a task added with the canvas's "+" menu, or the panel's own
 * list of tasks selects one, and the focus moves to its form; "Back to the canvas" returns to its node.
 */
function TaskBoard({ formId, drafts, onChange }: { formId: string; drafts: TaskDraft[]; onChange: Dispatch<SetStateAction<TaskDraft[]>> }) {
  const [selected, setSelected] = useState(drafts[0]?.key ?? "");
  const [opened, setOpened] = useState(0);
  const open = (key: string) => {
    setSelected(key);
    setOpened((n) => n + 1);
  };
  const i = Math.max(
    0,
    drafts.findIndex((d) => d.key === selected),
  );
  const d = drafts[i];
  const choices = taskChoices(drafts);
  const shortcuts = choices.filter((c) => drafts.find((x) => x.key === c.value)?.task.type === "shortcut");
  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <BranchingGraph
        drafts={drafts}
        selected={d?.key}
        onChange={onChange}
        onAdd={(type) => {
          const key = freshKey(drafts);
          onChange((all) => [...all, { key, task: taskTemplate(type) }]);
          open(key);
        }}
        onRemove={(key) => onChange((all) => removeTask(all, key))}
        onOpen={open}
      />
      {d && (
        <NodePanel
          id={`${formId}-panel`}
          title={taskName(i, d.task)}
          opened={opened}
          onBack={() => focusCanvasNode("branching-graph", d.key)}
        >
          <Select label="Task to edit" plain value={d.key} onChange={open} options={choices} />
          <TaskCard
            key={d.key}
            draft={d}
            index={i}
            others={choices.filter((c) => c.value !== d.key)}
            shortcuts={shortcuts.filter((c) => c.value !== d.key)}
            onChange={(task) => onChange((all) => all.map((x, j) => (j === i ? { ...x, task } : x)))}
            onFirst={() => onChange((all) => [all[i], ...all.filter((_, j) => j !== i)])}
            onRemove={() => {
              onChange((all) => removeTask(all, d.key));
              setSelected(drafts.find((x) => x.key !== d.key)?.key ?? "");
            }}
          />
        </NodePanel>
      )}
    </div>
  );
}

/** One task of the workflow: its type, making it the first, removing it, and its type's editor; its key in small print. */
function TaskCard({
  draft: d,
  index: i,
  others,
  shortcuts,
  onChange,
  onFirst,
  onRemove,
}: {
  draft: TaskDraft;
  index: number;
  /** The other tasks. */
  others: TaskChoice[];
  /** The other shortcut tasks. */
  shortcuts: TaskChoice[];
  onChange(task: TaskDef): void;
  onFirst(): void;
  onRemove(): void;
}) {
  const name = `Task ${i + 1}`;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-gray-600">
        {i === 0 ? "The first task. " : ""}
        <span title="The task's key: extractors, exports and aggregations name it">
          Key <span className="font-mono">{d.key}</span>
        </span>
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">{name} type</span>
          <select
            className={inputClass}
            value={String(d.task.type)}
            onChange={(e) => onChange({ ...taskTemplate(e.target.value), ...(d.task.next ? { next: d.task.next } : {}) })}
          >
            {TASK_TYPES.map(([t, label]) => (
              <option key={t} value={t} title={t}>
                {label}
              </option>
            ))}
            {!TASK_TYPES.some(([t]) => t === d.task.type) && <option value={String(d.task.type)}>{String(d.task.type)}</option>}
          </select>
          <span aria-hidden="true" className="font-mono text-xs text-gray-600">
            {String(d.task.type)}
          </span>
        </label>
        {i > 0 && (
          <button type="button" className={buttonClass} onClick={onFirst}>
            Make {name} the first task
          </button>
        )}
        {others.length > 0 && (
          <button type="button" className={buttonClass} onClick={onRemove}>
            Remove {name}
          </button>
        )}
      </div>
      <TaskEditor taskName={name} task={d.task} onChange={onChange} others={others} shortcuts={shortcuts} />
    </div>
  );
}
