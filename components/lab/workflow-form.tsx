"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiPost, apiPutFresh } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { freshKey, removeTask, TASK_TYPES, taskTemplate, tasksFromDrafts, type TaskDef, type TaskDraft } from "@/lib/lab/task-editing";
import { lazyPart } from "@/components/classifier/lazy-part";
import { buttonClass, inputClass, primaryButtonClass } from "@/components/ui/controls";
import { TaskEditor } from "./task-editors/task-editor";
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
}: {
  projectId: number;
  workflow?: EditedWorkflow;
  subjectSets?: LabSubjectSet[];
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
  const update = (i: number, task: TaskDef) => setDrafts((all) => all.map((x, j) => (j === i ? { ...x, task } : x)));
  const shortcuts = drafts.filter((d) => d.task.type === "shortcut").map((d) => d.key);
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
            await apiPost("/workflows", {
              workflows: { ...fields(), links: { project: String(projectId), subject_sets: linked.map(String) } },
            });
            setName("");
            setDrafts([{ key: "T0", task: taskTemplate("single") }]);
            router.refresh();
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

      <BranchingGraph
        drafts={drafts}
        onChange={setDrafts}
        onAdd={(type) => setDrafts((all) => [...all, { key: freshKey(all), task: taskTemplate(type) }])}
        onRemove={(key) => setDrafts((all) => removeTask(all, key))}
        onOpen={(key) => {
          const form = document.getElementById(`${formId}-task-${key}`);
          form?.scrollIntoView({ block: "start" });
          form?.querySelector<HTMLElement>("input, select, textarea")?.focus({ preventScroll: true });
        }}
      />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex flex-col gap-3">
          {drafts.map((d, i) => (
            <TaskCard
              key={d.key}
              id={`${formId}-task-${d.key}`}
              draft={d}
              index={i}
              keys={drafts.map((x) => x.key)}
              shortcuts={shortcuts.filter((k) => k !== d.key)}
              onChange={(task) => update(i, task)}
              onFirst={() => setDrafts((all) => [all[i], ...all.filter((_, j) => j !== i)])}
              onRemove={() => setDrafts((all) => removeTask(all, d.key))}
            />
          ))}
          <button
            type="button"
            className={`${buttonClass} self-start`}
            onClick={() => setDrafts((all) => [...all, { key: freshKey(all), task: taskTemplate("single") }])}
          >
            Add a task
          </button>
        </div>
        <div className="flex flex-col gap-3 self-start lg:sticky lg:top-4">
          <WorkflowPreview drafts={drafts} />
        </div>
      </div>

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

/** One task of the workflow: its type, making it the first, removing it, and its type's editor. */
function TaskCard({
  id,
  draft: d,
  index: i,
  keys,
  shortcuts,
  onChange,
  onFirst,
  onRemove,
}: {
  id: string;
  draft: TaskDraft;
  index: number;
  /** Every task's key. */
  keys: string[];
  /** The other shortcut tasks' keys. */
  shortcuts: string[];
  onChange(task: TaskDef): void;
  onFirst(): void;
  onRemove(): void;
}) {
  return (
    <fieldset id={id} className="flex scroll-mt-4 flex-col gap-2 rounded border border-gray-200 p-3">
      <legend className="px-1 font-semibold">
        Task {d.key}
        {i === 0 ? " (first)" : ""}
      </legend>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">{d.key} type</span>
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
            Make {d.key} the first task
          </button>
        )}
        {keys.length > 1 && (
          <button type="button" className={buttonClass} onClick={onRemove}>
            Remove task {d.key}
          </button>
        )}
      </div>
      <TaskEditor taskKey={d.key} task={d.task} onChange={onChange} others={keys.filter((k) => k !== d.key)} shortcuts={shortcuts} />
    </fieldset>
  );
}
