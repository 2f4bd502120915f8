"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { Panel } from "@/components/ui/panel";
import { primaryButtonClass } from "@/components/ui/controls";
import { EmptyState, Skeleton } from "@/components/ui/query-state";
import { apiGet, enginePost } from "@/components/ui/api-client";
import type {
  ClassificationRecord,
  DryRunAnswer,
  DryRunTarget,
  RecordPage,
  Records,
  SubjectRecord,
  WorkflowRecord,
} from "@/components/ui/wire-types";
import { type EngineShape, taskOfReducer } from "@/lib/lab/reduction-view";
import { exampleClassificationsJson, sampleClassifications, seededRandom } from "@/lib/lab/sample-classifications";
import type { Tasks } from "@/lib/tasks/types";
import { JsonToggle, ReductionBody } from "./reduction-display";

const brief = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
};
const effectText = (t: DryRunTarget) =>
  t.fired.length
    ? t.fired.flatMap((f) => f.effects.map((e) => `${String(e.action)}${e.reason ? ` (${String(e.reason)})` : ""}`)).join(", ")
    : "nothing";

type Source = "last" | "sample" | "paste";
/** How many of the workflow's subjects sample classifications are made on. */
const SAMPLE_SUBJECTS = 3;

/** What to do next, once a dry run has answered. */
function nextStep(answer: DryRunAnswer, taskKeys: string[]): string {
  const retiring = answer.targets.filter((t) => t.topic === "subject" && t.retires).length;
  if (answer.classifications === 0) return "There were no classifications to run: make sample classifications, or paste some.";
  if (!answer.extracts.length)
    return `No extractor read these classifications: check that each extractor's task key is one of the workflow's tasks${taskKeys.length ? ` (${taskKeys.join(", ")})` : ""}.`;
  if (retiring) return `The rules would retire ${retiring} subject${retiring === 1 ? "" : "s"}; save the configuration to make it live.`;
  if (!answer.targets.some((t) => t.fired.length))
    return "No rule would fire on these classifications: loosen a rule's condition, or try more classifications.";
  return "No subject would retire, but rules would fire (below); save the configuration to make it live.";
}

/**
 * A dry run of the configuration being edited: the workflow's last N classifications, sample ones made up
 * from its tasks, or pasted ones, through it, writing nothing; what it would extract, reduce and do per
 * subject, and where that differs from the saved configuration. It says what to do next: link subjects,
 * make samples, or save.
 */
export function DryRunPanel({
  workflowId,
  config,
}: {
  workflowId: number;
  config: { ok: true; value: object } | { ok: false; message: string };
}) {
  const workflow = useQuery({
    queryKey: ["dry-run-workflow", workflowId],
    queryFn: async () => (await apiGet<Records<"workflows", WorkflowRecord>>(`/workflows/${workflowId}`)).workflows[0],
    staleTime: 60_000,
  });
  const subjects = useQuery({
    queryKey: ["dry-run-subjects", workflowId],
    queryFn: () =>
      apiGet<RecordPage<"subjects", SubjectRecord>>(`/subjects?workflow_id=${workflowId}&page_size=${SAMPLE_SUBJECTS}&sort=id`),
    staleTime: 60_000,
  });
  const projectId = workflow.data?.links.project;
  const classified = useQuery({
    queryKey: ["dry-run-classified", workflowId],
    queryFn: async () =>
      (
        await apiGet<Records<"classifications", ClassificationRecord>>(
          `/classifications/project?project_id=${projectId}&workflow_id=${workflowId}&page_size=1`,
        )
      ).classifications.length > 0,
    enabled: !!projectId,
    staleTime: 30_000,
  });
  const tasks: Tasks = workflow.data?.tasks ?? {};
  const firstTask = workflow.data?.first_task ?? "";
  const subjectIds = (subjects.data?.subjects ?? []).map((s) => Number(s.id));
  const noSubjects = subjects.isSuccess && subjectIds.length === 0;
  const noClassifications = classified.data === false;

  const [chosen, setChosen] = useState<Source | null>(null);
  const [last, setLast] = useState("50");
  const [volunteers, setVolunteers] = useState("5");
  const [pasted, setPasted] = useState<string | null>(null);
  const { busy, outcome, run: act } = useAction();
  const [answer, setAnswer] = useState<DryRunAnswer | null>(null);
  const [sampled, setSampled] = useState<string | null>(null);

  // Until the researcher picks: recent classifications when there are some, else samples (or the example).
  const source: Source = chosen ?? (noClassifications ? (noSubjects ? "paste" : "sample") : "last");
  const example = workflow.data ? exampleClassificationsJson(tasks, firstTask, subjectIds[0]) : "";
  const pastedText = pasted ?? example;

  const run = () =>
    act(async () => {
      if (!config.ok) throw new Error(config.message);
      let body: Record<string, unknown>;
      let note: string | null = null;
      if (source === "sample") {
        const n = Math.max(1, Math.min(100, Math.floor(Number(volunteers)) || 1));
        const list = sampleClassifications({ tasks, firstTask, subjectIds, volunteers: n, rand: seededRandom(Date.now()) });
        setPasted(JSON.stringify(list, null, 2));
        body = { classifications: list };
        note = `Ran on ${list.length} sample classifications (${n} simulated volunteer${n === 1 ? "" : "s"} on ${subjectIds.length} subject${subjectIds.length === 1 ? "" : "s"}, nothing saved); they are under "Pasted classifications" to edit and run again.`;
      } else {
        try {
          body = source === "last" ? { last: Number(last) } : { classifications: JSON.parse(pastedText) };
        } catch {
          throw new Error("The pasted classifications are not valid JSON (a JSON array).");
        }
      }
      try {
        setAnswer(await enginePost(`/workflows/${workflowId}/dry_run`, { workflow: config.value, ...body }));
        setSampled(note);
      } catch (err) {
        setAnswer(null);
        throw err;
      }
    });

  return (
    <Panel id="dry-run-heading" title="Dry run">
      <p className="text-sm text-gray-600">
        Try this configuration on classifications before saving it: nothing is written, nothing is retired.
      </p>
      {workflow.isPending || subjects.isPending ? (
        <Skeleton what="the workflow's subjects" lines={1} />
      ) : noSubjects ? (
        <EmptyState>
          This workflow has no subjects yet: link a subject set to it (the project&apos;s{" "}
          <Link href={`/lab/projects/${projectId}/subjects`} className="text-brand-700 underline">
            subjects
          </Link>
          ) to make sample classifications on them. Meanwhile the pasted example runs on a made-up subject.
        </EmptyState>
      ) : noClassifications ? (
        <EmptyState>
          No volunteer has classified this workflow yet: make sample classifications from its tasks (random answers by simulated volunteers
          on {subjectIds.length} of its subjects, nothing saved), or paste your own.
        </EmptyState>
      ) : null}
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="sr-only">Classifications to run</legend>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2">
            <input type="radio" name="dry-run-source" checked={source === "last"} onChange={() => setChosen("last")} />
            The last
          </label>
          <input
            type="number"
            min={1}
            max={500}
            className="w-24 rounded border border-gray-300 px-2 py-1"
            value={last}
            onChange={(e) => setLast(e.target.value)}
            disabled={source !== "last"}
            aria-label="How many recent classifications"
          />
          <span>classifications of this workflow</span>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="dry-run-source"
              checked={source === "sample"}
              disabled={noSubjects}
              onChange={() => setChosen("sample")}
            />
            Sample classifications by
          </label>
          <input
            type="number"
            min={1}
            max={100}
            className="w-20 rounded border border-gray-300 px-2 py-1"
            value={volunteers}
            onChange={(e) => setVolunteers(e.target.value)}
            disabled={source !== "sample"}
            aria-label="How many simulated volunteers"
          />
          <span>simulated volunteers on a few of its subjects</span>
        </div>
        <label className="flex items-center gap-2">
          <input type="radio" name="dry-run-source" checked={source === "paste"} onChange={() => setChosen("paste")} />
          Pasted classifications
        </label>
      </fieldset>
      {source === "paste" && (
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Classifications (JSON array, as POST /engine/classifications takes them)</span>
          <span className="text-gray-600">
            Prefilled with an example made from this workflow&apos;s tasks: three volunteers giving each task&apos;s first answer.
          </span>
          <textarea
            rows={8}
            className="rounded border border-gray-300 px-2 py-1 font-mono text-xs"
            value={pastedText}
            onChange={(e) => setPasted(e.target.value)}
          />
        </label>
      )}
      <button
        type="button"
        disabled={busy || (source === "sample" && !subjectIds.length)}
        onClick={() => void run()}
        className={`self-start ${primaryButtonClass}`}
      >
        {busy ? "Running…" : source === "sample" ? "Make sample classifications and run" : "Run the dry run"}
      </button>
      <StatusMessage outcome={outcome} />
      {answer && <DryRunResult answer={answer} tasks={tasks} config={config.ok ? (config.value as EngineShape) : null} sampled={sampled} />}
    </Panel>
  );
}

/** What a dry run answered: the counts and what to do next, what the rules would do (beside the saved configuration's), the reductions and the extracts. */
function DryRunResult({
  answer,
  tasks,
  config,
  sampled,
}: {
  answer: DryRunAnswer;
  tasks: Tasks;
  config: EngineShape | null;
  /** What the sample classifications run were, when they were made up. */
  sampled: string | null;
}) {
  const changed = new Set((answer.diff ?? []).map((d) => `${d.topic}:${d.target_id}`));
  const savedTarget = (t: DryRunTarget) => answer.saved?.targets.find((s) => s.topic === t.topic && s.target_id === t.target_id);
  return (
    <div className="flex flex-col gap-3" data-testid="dry-run-result">
      <p role="status" className="text-sm">
        {answer.classifications} classifications, {answer.extracts.length} extracts, {answer.reductions.length} reductions.
        {answer.skipped.length > 0 && ` Not run here: ${answer.skipped.join(", ")}.`}
        {answer.warnings.length > 0 && ` Warnings: ${answer.warnings.join("; ")}`}
        <span className="mt-1 block font-medium">{nextStep(answer, Object.keys(tasks))}</span>
        {sampled && <span className="mt-1 block text-gray-600">{sampled}</span>}
      </p>
      {answer.targets.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus so a keyboard can scroll it
        <div className="overflow-x-auto" tabIndex={0} role="group" aria-label="What the rules would do">
          <table className="w-full text-left text-sm [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
            <caption className="text-left font-medium">What the rules would do</caption>
            <thead>
              <tr>
                <th scope="col">Subject or volunteer</th>
                <th scope="col">Outcome</th>
                <th scope="col">Effects</th>
                {answer.saved && <th scope="col">With the saved configuration</th>}
              </tr>
            </thead>
            <tbody>
              {answer.targets.map((t) => (
                <tr
                  key={`${t.topic}:${t.target_id}`}
                  data-testid={`dry-run-${t.topic}-${t.target_id}`}
                  className={`border-t border-gray-100 ${changed.has(`${t.topic}:${t.target_id}`) ? "bg-amber-50" : ""}`}
                >
                  <td>
                    {t.topic === "subject" ? "Subject" : "Volunteer"} {t.target_id}
                  </td>
                  <td>
                    {t.topic === "subject"
                      ? t.retires
                        ? `would retire (${t.retirement_reason})`
                        : "would not retire"
                      : t.fired.length
                        ? "rules fire"
                        : "no rule fires"}
                  </td>
                  <td>{effectText(t)}</td>
                  {answer.saved && (
                    <td>
                      {savedTarget(t) ? effectText(savedTarget(t)!) : "nothing"}
                      {changed.has(`${t.topic}:${t.target_id}`) ? " (differs)" : ""}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details className="rounded border border-gray-200 p-2 text-sm">
        <summary className="cursor-pointer font-medium">Reductions ({answer.reductions.length})</summary>
        <table className="mt-2 w-full text-left [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Reducer</th>
              <th scope="col">Data</th>
            </tr>
          </thead>
          <tbody>
            {answer.reductions.map((r, i) => (
              <tr key={i} className="border-t border-gray-100">
                <td>
                  {r.topic} {r.target_id}
                </td>
                <td>
                  {r.reducer_key}
                  {r.subgroup !== "_default" ? ` · ${r.subgroup}` : ""}
                </td>
                <td className="min-w-48">
                  <ReductionBody
                    data={r.data}
                    task={taskOfReducer(tasks, config, r.reducer_key)}
                    name={`${r.reducer_key} for ${r.topic} ${r.target_id}`}
                  />
                  <JsonToggle data={r.data} name={`${r.reducer_key} for ${r.topic} ${r.target_id}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <details className="rounded border border-gray-200 p-2 text-sm">
        <summary className="cursor-pointer font-medium">Extracts ({answer.extracts.length})</summary>
        <table className="mt-2 w-full text-left [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
          <thead>
            <tr>
              <th scope="col">Classification</th>
              <th scope="col">Subject</th>
              <th scope="col">Extractor</th>
              <th scope="col">Data</th>
            </tr>
          </thead>
          <tbody>
            {answer.extracts.map((e, i) => (
              <tr key={i} className="border-t border-gray-100">
                <td>{e.classification_id}</td>
                <td>{e.subject_id}</td>
                <td>{e.extractor_key}</td>
                <td className="font-mono text-xs">{brief(e.data)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
