"use client";
import { ProgressBar } from "@/components/ui/progress-bar";
import { subjectImage } from "./subject-image";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { apiGet, apiPost, enginePost, engineGet, requestOrNull } from "@/components/ui/api-client";
import { EmptyState, QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { Panel } from "@/components/ui/panel";
import type {
  ActionRecord,
  AggregationRecord,
  EngineWorkflowAnswer,
  ExportMediumRecord,
  Records,
  ReductionRecord,
  SubjectRecord,
  SubjectWorkflowStatusRecord,
} from "@/components/ui/wire-types";
import { barValues, taskOfReducer } from "@/lib/lab/reduction-view";
import { engineCount, retireTarget, retireTargetText, votesToRetireText } from "@/lib/lab/retirement-progress";
import type { Tasks } from "@/lib/tasks/types";
import { JsonToggle, ReductionBody } from "./reduction-display";
import { formatMoment } from "@/lib/text/format";
import { Alert } from "@/components/ui/alert";
import { buttonClass, primaryButtonClass } from "@/components/ui/controls";

// A workflow watched live: reductions per subject (drawn as answer bars with the workflow's own labels, the
// subject's picture beside them, the JSON a click away), retired subjects with their reasons, the engine's
// actions (failures retried by hand), classification exports and aggregation runs. Every list refreshes
// every few seconds.

const LIVE = 3000;

/** A live list: skeleton, error and empty states, then the table, scrolling sideways on small screens. */
function Listed({
  q,
  label,
  empty,
  children,
}: {
  q: { isPending: boolean; isError: boolean; error: unknown; data?: unknown[] };
  /** The scrolling box's name (the table's, as a screen reader announces the box before it). */
  label: string;
  empty: ReactNode;
  children: ReactNode;
}) {
  return (
    <QueryState query={q} what="list" empty={empty} skeleton={3}>
      {/* relative: the tables' screen-reader-only texts are clipped with them, not placed against the page;
          focusable, so a keyboard scrolls a table wider than its panel */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus so a keyboard can scroll it */}
      <div className="relative overflow-x-auto" tabIndex={0} role="group" aria-label={label}>
        {children}
      </div>
    </QueryState>
  );
}

/** The listed subjects' records (for their pictures), fetched once per set of ids. */
function useSubjects(ids: number[]): Map<number, SubjectRecord> {
  const key = [...new Set(ids)].sort((a, b) => a - b);
  const q = useQuery({
    queryKey: ["monitor-subjects", key.join(",")],
    queryFn: async () =>
      (await apiGet<Records<"subjects", SubjectRecord>>(`/subjects?id=${key.join(",")}&page_size=${Math.min(100, key.length)}`)).subjects,
    enabled: key.length > 0,
    staleTime: 5 * 60_000,
  });
  return new Map((q.data ?? []).map((s) => [Number(s.id), s]));
}

/** A subject's thumbnail (decorative: its id is written beside it), or a grey square when it has no image or it fails to load. */
function SubjectThumb({ subject, size = "h-16 w-16" }: { subject: SubjectRecord | undefined; size?: string }) {
  const [failed, setFailed] = useState(false);
  const local = useUploadUrl();
  const stored = subjectImage(subject);
  const src = stored && local(stored); // one of our uploads by path on this page's origin
  if (!src || failed) return <span aria-hidden="true" className={`${size} shrink-0 rounded bg-gray-100`} />;
  return (
    <img src={src} alt="" loading="lazy" onError={() => setFailed(true)} className={`${size} shrink-0 rounded bg-gray-100 object-cover`} />
  );
}

/** Each listed subject's classification count in the workflow (for a workflow's classification_count target). */
function useClassificationCounts(workflowId: number, ids: number[], enabled: boolean): Map<number, number> {
  const key = [...new Set(ids)].sort((a, b) => a - b);
  const q = useQuery({
    queryKey: ["monitor-subject-counts", workflowId, key.join(",")],
    queryFn: async () =>
      (
        await apiGet<Records<"subject_workflow_statuses", SubjectWorkflowStatusRecord>>(
          `/subject_workflow_statuses?workflow_id=${workflowId}&subject_id=${key.join(",")}&page_size=${Math.min(100, key.length)}`,
        )
      ).subject_workflow_statuses,
    enabled: enabled && key.length > 0,
    refetchInterval: LIVE,
  });
  return new Map((q.data ?? []).map((s) => [Number(s.links.subject), s.classifications_count]));
}

/** How close an active subject is to retiring: "2 of 3 votes to retire", with a bar. */
function VotesToRetire({ current, target, subjectId }: { current: number; target: number; subjectId: number }) {
  const text = votesToRetireText(current, target);
  return (
    <div className="flex items-center gap-2 text-xs text-gray-700" data-testid="votes-to-retire">
      <span className="shrink-0">{text}</span>
      <ProgressBar className="w-24" max={target} value={current} label={`Subject ${subjectId}: ${text}`} />
    </div>
  );
}

function Reductions({
  workflowId,
  tasks,
  engineConfigured,
  retirementLimit,
}: {
  workflowId: number;
  tasks: Tasks;
  engineConfigured: boolean;
  retirementLimit: number | null;
}) {
  const q = useQuery({
    queryKey: ["monitor-reductions", workflowId],
    // A workflow the engine has no configuration for has none (the engine's 404 would be logged by the browser).
    queryFn: () => (engineConfigured ? engineGet<ReductionRecord[]>(`/workflows/${workflowId}/reductions?page_size=50`) : []),
    refetchInterval: LIVE,
  });
  const config = useQuery({
    queryKey: ["monitor-engine-config", workflowId],
    queryFn: async () => (await requestOrNull<EngineWorkflowAnswer>("engine", `/workflows/${workflowId}`))?.workflow ?? null,
    staleTime: 60_000,
    // Not asked for before there is one (the page knows): a 404 the browser would log.
    enabled: engineConfigured,
  });
  const ids = (q.data ?? []).map((r) => r.subject_id);
  const subjects = useSubjects(ids);
  // Until the engine's configuration is read, its rules may set the target: none is shown yet.
  const target = engineConfigured && config.isPending ? undefined : retireTarget(config.data, retirementLimit);
  const counts = useClassificationCounts(workflowId, ids, target?.source === "workflow");
  const taskOf = (r: ReductionRecord) => taskOfReducer(tasks, config.data, r.reducer_key);
  // One scale for every bar of the view: a count is as long here as the same count on another subject.
  const scale = Math.max(1, ...(q.data ?? []).flatMap((r) => barValues(r.data, taskOf(r))));
  const bySubject = new Map<number, ReductionRecord[]>();
  for (const r of q.data ?? []) bySubject.set(r.subject_id, [...(bySubject.get(r.subject_id) ?? []), r]);
  return (
    <Panel dense id="monitor-reductions" title="Reductions per subject">
      {target !== undefined && !!q.data?.length && (
        <p className="text-sm text-gray-700" data-testid="retire-target">
          {retireTargetText(target)} All bars share one scale: a full bar is {scale}.
        </p>
      )}
      <QueryState
        query={q}
        what="reductions"
        skeleton={4}
        empty={
          engineConfigured
            ? "No reductions yet: they appear here as volunteers classify. Try the configuration on sample classifications with the decision engine's dry run."
            : "No decision engine configuration yet: build one on the Decision engine page, and reductions appear here as volunteers classify."
        }
      >
        <ul className="flex flex-col gap-3" aria-label="Subjects with their latest reductions">
          {[...bySubject].map(([subjectId, list]) => {
            const retired = list.find((r) => r.retired_at);
            const current = !target ? null : target.source === "engine" ? engineCount(target, list) : (counts.get(subjectId) ?? null);
            return (
              <li
                key={subjectId}
                data-testid={`monitor-subject-${subjectId}`}
                className="flex flex-col gap-3 rounded border border-gray-200 p-3 sm:flex-row"
              >
                <SubjectThumb subject={subjects.get(subjectId)} />
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">Subject {subjectId}</span>
                    {retired ? (
                      <span className="rounded bg-gray-800 px-2 text-xs text-white">retired ({retired.retirement_reason ?? "?"})</span>
                    ) : (
                      <span className="rounded bg-green-100 px-2 text-xs text-green-900">active</span>
                    )}
                  </p>
                  {!retired && target && current !== null && (
                    <VotesToRetire current={current} target={target.count} subjectId={subjectId} />
                  )}
                  {list.map((r) => {
                    const name = `${r.reducer_key} for subject ${subjectId}`;
                    return (
                      <div key={r.id} className="flex flex-col gap-1 border-t border-gray-100 pt-2">
                        <p className="text-xs text-gray-600">
                          <span className="font-mono">{r.reducer_key}</span> · updated {formatMoment(r.updated_at)}
                        </p>
                        <ReductionBody data={r.data} task={taskOf(r)} name={name} scale={scale} />
                        <JsonToggle data={r.data} name={name} />
                      </div>
                    );
                  })}
                </div>
              </li>
            );
          })}
        </ul>
      </QueryState>
    </Panel>
  );
}

function Retired({ workflowId }: { workflowId: number }) {
  const q = useQuery({
    queryKey: ["monitor-retired", workflowId],
    queryFn: async () =>
      (
        await apiGet<Records<"subject_workflow_statuses", SubjectWorkflowStatusRecord>>(
          `/subject_workflow_statuses?workflow_id=${workflowId}&retired=true&sort=-retired_at&page_size=50`,
        )
      ).subject_workflow_statuses,
    refetchInterval: LIVE,
  });
  const subjects = useSubjects((q.data ?? []).map((s) => Number(s.links.subject)));
  return (
    <Panel dense id="monitor-retired" title="Retired subjects">
      <Listed
        q={q}
        label="Retired subjects"
        empty="No subject is retired yet: a rule with a retire effect retires subjects as its condition is met."
      >
        <table className="w-full text-left text-sm [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
          <caption className="sr-only">Retired subjects, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Reason</th>
              <th scope="col">Classifications</th>
              <th scope="col">Retired</th>
            </tr>
          </thead>
          <tbody>
            {q.data?.map((s) => (
              <tr key={s.id} className="border-t border-gray-100">
                <td>
                  <span className="flex items-center gap-2">
                    <SubjectThumb subject={subjects.get(Number(s.links.subject))} size="h-8 w-8" />
                    {s.links.subject}
                  </span>
                </td>
                <td>{s.retirement_reason ?? "—"}</td>
                <td>{s.classifications_count}</td>
                <td>{formatMoment(s.retired_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Listed>
    </Panel>
  );
}

function Actions({ workflowId, engineConfigured }: { workflowId: number; engineConfigured: boolean }) {
  const q = useQuery({
    queryKey: ["monitor-actions", workflowId],
    queryFn: () => (engineConfigured ? engineGet<ActionRecord[]>(`/workflows/${workflowId}/actions?page_size=50`) : []),
    refetchInterval: LIVE,
  });
  const { outcome, run } = useAction();
  const retry = (id: number) =>
    run(async () => {
      try {
        await enginePost(`/workflows/${workflowId}/actions/${id}/retry`);
      } finally {
        await q.refetch();
      }
      return `Action ${id} will be performed again.`;
    });
  return (
    <Panel dense id="monitor-actions" title="Action log">
      <StatusMessage outcome={outcome} />
      <Listed q={q} label="Action log" empty="No actions yet: rules that fire record them here.">
        <table className="w-full text-left text-sm [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
          <caption className="sr-only">The engine&apos;s actions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Effect</th>
              <th scope="col">On</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Error</th>
              <th scope="col">
                <span className="sr-only">Retry</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {q.data?.map((a) => (
              <tr key={a.id} className={`border-t border-gray-100 ${a.status === "failed" ? "bg-red-50" : ""}`}>
                <td>{a.id}</td>
                <td>{a.effect_type}</td>
                <td>{a.subject_id !== null ? `subject ${a.subject_id}` : `volunteer ${a.user_id}`}</td>
                <td data-testid={`action-status-${a.id}`}>{a.status}</td>
                <td>{a.attempts}</td>
                <td className="max-w-xs text-xs text-red-800">{a.error ?? ""}</td>
                <td>
                  {a.status === "failed" && (
                    <button type="button" className={buttonClass} onClick={() => void retry(a.id)}>
                      Retry<span className="sr-only"> action {a.id}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Listed>
    </Panel>
  );
}

function Exports({ workflowId, hasExport }: { workflowId: number; hasExport: boolean }) {
  const client = useQueryClient();
  const key = ["monitor-export", workflowId];
  // Until an export has been requested there is nothing to ask for (the API's 404 would be logged by the browser).
  const [requested, setRequested] = useState(hasExport);
  const q = useQuery({
    queryKey: key,
    queryFn: async () => {
      const body = await requestOrNull<Records<"media", ExportMediumRecord>>("api", `/workflows/${workflowId}/classifications_export`, {
        cache: "no-store",
      });
      return body ? body.media[0] : null;
    },
    refetchInterval: (query) => (query.state.data?.metadata.state === "creating" ? 1000 : false),
    enabled: requested,
    initialData: requested ? undefined : null,
  });
  const { outcome, run } = useAction();
  // The file is named under PUBLIC_URL; the link goes to it by path on this page's origin (../ui/upload-url.ts),
  // so a lab opened by another name of the server downloads it from there.
  const local = useUploadUrl();
  const m = q.data;
  return (
    <Panel dense id="monitor-exports" title="Classifications export">
      <QueryState query={q} what="export" skeleton={1}>
        {!m ? (
          <EmptyState>No export has been requested yet.</EmptyState>
        ) : m.metadata.state === "creating" ? (
          <div role="status" className="flex flex-col gap-1 text-sm">
            <ProgressBar className="w-full max-w-md" max={m.metadata.total ?? 0} value={m.metadata.progress ?? 0} label="Export progress" />
            Writing the export: {m.metadata.progress ?? 0} of {m.metadata.total ?? "?"} classifications…
          </div>
        ) : m.metadata.state === "failed" ? (
          <Alert inline>The export failed: {m.metadata.error}</Alert>
        ) : (
          <p className="text-sm">
            <a href={m.src ? local(m.src) : "#"} className="font-semibold text-brand-700 underline" download>
              Download the classifications export (CSV)
            </a>
          </p>
        )}
      </QueryState>
      <StatusMessage outcome={outcome} />
      <button
        type="button"
        disabled={m?.metadata.state === "creating"}
        className={`self-start ${primaryButtonClass}`}
        onClick={() =>
          run(async () => {
            const body = await apiPost<Records<"media", ExportMediumRecord>>(`/workflows/${workflowId}/classifications_export`, {
              media: { content_type: "text/csv" },
            });
            client.setQueryData(key, body.media[0]);
            setRequested(true);
          })
        }
      >
        Request a new export
      </button>
    </Panel>
  );
}

function Aggregations({ workflowId, userId }: { workflowId: number; userId: number }) {
  const q = useQuery({
    queryKey: ["monitor-aggregations", workflowId],
    queryFn: async () => (await apiGet<Records<"aggregations", AggregationRecord>>(`/aggregations?workflow_id=${workflowId}`)).aggregations,
    refetchInterval: LIVE,
  });
  const { outcome, run } = useAction();
  return (
    <Panel dense id="monitor-aggregations" title="Aggregation runs">
      <Listed q={q} label="Aggregation runs" empty="No aggregation run yet.">
        <table className="w-full text-left text-sm [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
          <caption className="sr-only">Aggregation runs of this workflow</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col">Task</th>
              <th scope="col">Output</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {q.data?.map((a) => (
              <tr key={a.id} className="border-t border-gray-100">
                <td>{a.id}</td>
                <td>
                  {a.status === "pending" ? "running…" : a.status}
                  {a.error ? `: ${a.error}` : ""}
                </td>
                <td>{a.task_id ?? "—"}</td>
                <td className="font-mono text-xs">
                  {a.results_url ? (
                    <a href={a.results_url} className="text-brand-700 underline">
                      Download the results<span className="sr-only"> of run {a.id}</span>
                    </a>
                  ) : (
                    (a.uuid ?? "—")
                  )}
                </td>
                <td>{formatMoment(a.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Listed>
      <StatusMessage outcome={outcome} />
      <button
        type="button"
        className={`self-start ${buttonClass}`}
        onClick={() =>
          run(async () => {
            await apiPost("/aggregations", { aggregations: { links: { workflow: String(workflowId), user: String(userId) } } });
            await q.refetch();
            return "Aggregation run requested.";
          })
        }
      >
        Run an aggregation
      </button>
    </Panel>
  );
}

export function WorkflowMonitor({
  workflowId,
  userId,
  tasks,
  engineConfigured,
  hasExport,
  retirementLimit,
}: {
  workflowId: number;
  userId: number;
  tasks: Tasks;
  /** The classifications that retire a subject by the workflow's own criteria (null: never_retire). */
  retirementLimit: number | null;
  /** Whether the workflow has an engine configuration and a classifications export yet (lab-access's workflowExtras). */
  engineConfigured: boolean;
  hasExport: boolean;
}) {
  return (
    <div className="grid gap-4 xl:grid-cols-2 [&>*]:min-w-0">
      <Reductions workflowId={workflowId} tasks={tasks} engineConfigured={engineConfigured} retirementLimit={retirementLimit} />
      <Retired workflowId={workflowId} />
      <Actions workflowId={workflowId} engineConfigured={engineConfigured} />
      <div className="flex flex-col gap-4">
        <Exports workflowId={workflowId} hasExport={hasExport} />
        <Aggregations workflowId={workflowId} userId={userId} />
      </div>
    </div>
  );
}
