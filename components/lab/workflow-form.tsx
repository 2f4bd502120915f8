"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiPost, apiPutFresh } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { emptyDraft, freshKey, toTasks, type DraftTask } from "@/lib/lab/workflow-drafts";

const input = "rounded border border-gray-300 px-2 py-1 text-sm";
const button = "rounded border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100";

export interface EditedWorkflow {
  id: number;
  displayName: string;
  active: boolean;
  retirement: { criteria?: string; options?: { count?: number } };
  drafts: DraftTask[];
}

/**
 * A workflow with question and text tasks: each task's question and answers, and where each answer (or
 * the task) leads. New, or an existing one edited (its tasks keep their keys; the API moves its version).
 * The API validates the whole (every `next` must name a task); its message is shown. Drawing, survey and
 * combo tasks are written through the API for now.
 */
export function WorkflowForm({ projectId, workflow }: { projectId: number; workflow?: EditedWorkflow }) {
  const router = useRouter();
  const [name, setName] = useState(workflow?.displayName ?? "");
  const [active, setActive] = useState(workflow?.active ?? true);
  const [count, setCount] = useState(workflow ? (workflow.retirement.criteria === "never_retire" ? "" : String(workflow.retirement.options?.count ?? 15)) : "15");
  const [drafts, setDrafts] = useState<DraftTask[]>(workflow?.drafts.length ? workflow.drafts : [emptyDraft("T0")]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const update = (i: number, d: Partial<DraftTask>) => setDrafts((all) => all.map((x, j) => (j === i ? { ...x, ...d } : x)));
  const nextOptions = (i: number) => drafts.map((d) => d.key).filter((k) => k !== drafts[i].key);
  const keyOf = (i: number) => drafts[i].key;

  return (
    <form
      className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        setSaved(null);
        try {
          const fields = {
            display_name: name,
            tasks: toTasks(drafts),
            first_task: keyOf(0),
            retirement: count ? { criteria: "classification_count", options: { count: Number(count) } } : { criteria: "never_retire" },
          };
          if (workflow) {
            const body = await apiPutFresh<{ workflows: { version: string }[] }>(`/workflows/${workflow.id}`, { workflows: { ...fields, active } });
            setSaved(`Saved: version ${body.workflows[0].version}.`);
          } else {
            await apiPost("/workflows", { workflows: { ...fields, links: { project: String(projectId) } } });
            setName("");
            setDrafts([emptyDraft("T0")]);
          }
          router.refresh();
        } catch (err) {
          setError((err as Error).message);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 className="text-lg font-semibold">{workflow ? "Workflow" : "New workflow"}</h3>
      <div className="flex flex-wrap items-end gap-3">
        <Field id="workflow-name" label="Workflow name" required value={name} onChange={(e) => setName(e.target.value)} />
        <Field id="workflow-retirement" label="Retire after this many classifications (empty: never)" type="number" min={1} value={count} onChange={(e) => setCount(e.target.value)} />
        {workflow && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
            Active (volunteers can classify it)
          </label>
        )}
      </div>
      {drafts.map((d, i) => (
        <fieldset key={d.key} className="flex flex-col gap-2 rounded border border-gray-200 p-3">
          <legend className="px-1 font-semibold">
            Task {keyOf(i)}
            {i === 0 ? " (first)" : ""}
          </legend>
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium">{keyOf(i)} type</span>
              <select className={input} value={d.type} onChange={(e) => update(i, { type: e.target.value as DraftTask["type"] })}>
                <option value="single">Question, one answer</option>
                <option value="multiple">Question, several answers</option>
                <option value="text">Free text</option>
              </select>
            </label>
            <label className="flex flex-1 flex-col gap-1 text-sm">
              <span className="font-medium">{keyOf(i)} {d.type === "text" ? "instruction" : "question"}</span>
              <input className={input} required value={d.question} onChange={(e) => update(i, { question: e.target.value })} />
            </label>
            {drafts.length > 1 && (
              <button type="button" className={button} onClick={() => setDrafts((all) => all.filter((_, j) => j !== i))}>
                Remove task {keyOf(i)}
              </button>
            )}
          </div>
          {d.type !== "text" &&
            d.answers.map((a, k) => (
              <div key={k} className="flex flex-wrap items-end gap-2 pl-4">
                <label className="flex flex-col gap-1 text-sm">
                  <span>
                    {keyOf(i)} answer {k + 1}
                  </span>
                  <input className={input} required value={a.label} onChange={(e) => update(i, { answers: d.answers.map((x, j) => (j === k ? { ...x, label: e.target.value } : x)) })} />
                </label>
                {d.type === "single" && (
                  <label className="flex flex-col gap-1 text-sm">
                    <span>
                      {keyOf(i)} answer {k + 1} leads to
                    </span>
                    <select className={input} value={a.next} onChange={(e) => update(i, { answers: d.answers.map((x, j) => (j === k ? { ...x, next: e.target.value } : x)) })}>
                      <option value="">the end</option>
                      {nextOptions(i).map((t) => (
                        <option key={t}>{t}</option>
                      ))}
                    </select>
                  </label>
                )}
                {d.answers.length > 1 && (
                  <button type="button" className={button} onClick={() => update(i, { answers: d.answers.filter((_, j) => j !== k) })}>
                    Remove<span className="sr-only">
                      {" "}
                      {keyOf(i)} answer {k + 1}
                    </span>
                  </button>
                )}
              </div>
            ))}
          {d.type !== "text" && (
            <button type="button" className={`${button} ml-4 self-start`} onClick={() => update(i, { answers: [...d.answers, { label: "", next: "" }] })}>
              Add an answer<span className="sr-only"> to {keyOf(i)}</span>
            </button>
          )}
          {d.type !== "single" && (
            <label className="flex flex-col gap-1 pl-4 text-sm">
              <span>{keyOf(i)} then goes to</span>
              <select className={`${input} self-start`} value={d.next} onChange={(e) => update(i, { next: e.target.value })}>
                <option value="">the end</option>
                {nextOptions(i).map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
          )}
        </fieldset>
      ))}
      <button type="button" className={`${button} self-start`} onClick={() => setDrafts((all) => [...all, emptyDraft(freshKey(all))])}>
        Add a task
      </button>
      {error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm">
          {error}
        </p>
      )}
      {saved && (
        <p role="status" className="rounded border border-green-300 bg-green-50 p-2 text-sm">
          {saved}
        </p>
      )}
      <button type="submit" disabled={busy} className="self-start rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
        {busy ? "Saving…" : workflow ? "Save workflow" : "Create workflow"}
      </button>
    </form>
  );
}
