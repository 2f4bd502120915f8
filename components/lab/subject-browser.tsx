"use client";
import { subjectImage } from "./subject-image";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, apiPost } from "@/components/ui/api-client";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { Panel } from "@/components/ui/panel";
import type { RecordPage, Records, SubjectRecord, SubjectWorkflowStatusRecord } from "@/components/ui/wire-types";
import { buttonClass } from "@/components/ui/controls";

const PAGE_SIZE = 20;

/** After subjects were added (an import, an upload): every page of the lists shown is read again. */
export function invalidateSubjectLists(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ predicate: (q) => q.queryKey[0] === "lab-subjects" || q.queryKey[0] === "lab-subject-statuses" });
}

/** A subject set's subjects, a page at a time, with each one's retirement in a workflow, retired or unretired by hand. */
export function SubjectBrowser({
  subjectSets,
  workflows,
}: {
  subjectSets: { id: number; displayName: string }[];
  workflows: { id: number; displayName: string }[];
}) {
  const [chosenSetId, setSetId] = useState(subjectSets[0]?.id ?? 0);
  // The sets come from the page, which a refresh renders again (a set made by an import or an upload): a
  // choice no longer among them, or none yet, falls back to the first.
  const setId = subjectSets.some((s) => s.id === chosenSetId) ? chosenSetId : (subjectSets[0]?.id ?? 0);
  const local = useUploadUrl();
  const [workflowId, setWorkflowId] = useState(workflows[0]?.id ?? 0);
  const [page, setPage] = useState(1);
  const { outcome, run } = useAction();
  const subjects = useQuery({
    queryKey: ["lab-subjects", setId, page],
    queryFn: () =>
      apiGet<RecordPage<"subjects", SubjectRecord>>(`/subjects?subject_set_id=${setId}&page=${page}&page_size=${PAGE_SIZE}&sort=id`),
    enabled: !!setId,
    staleTime: 0,
  });
  const ids = subjects.data?.subjects.map((s) => s.id) ?? [];
  const statuses = useQuery({
    queryKey: ["lab-subject-statuses", workflowId, ids.join(",")],
    queryFn: async () => {
      const res = await apiGet<Records<"subject_workflow_statuses", SubjectWorkflowStatusRecord>>(
        `/subject_workflow_statuses?workflow_id=${workflowId}&subject_id=${ids.join(",")}&page_size=${PAGE_SIZE}`,
      );
      return new Map(res.subject_workflow_statuses.map((s) => [s.links.subject, s]));
    },
    enabled: !!workflowId && ids.length > 0,
    staleTime: 0,
  });
  const act = (subjectId: string, retire: boolean) =>
    run(async () => {
      await apiPost(
        `/workflows/${workflowId}/${retire ? "retired_subjects" : "unretire_subjects"}`,
        retire ? { subject_id: subjectId, retirement_reason: "other" } : { subject_id: subjectId },
      );
      await statuses.refetch();
      return `Subject ${subjectId} ${retire ? "retired" : "unretired"}.`;
    });

  if (!subjectSets.length) return <p className="text-gray-600">No subject sets yet.</p>;
  const meta = subjects.data?.meta.subjects;
  return (
    <Panel id="browse-heading" title="Browse subjects">
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Subject set</span>
          <select
            className="rounded border border-gray-300 px-3 py-2"
            value={setId}
            onChange={(e) => {
              setSetId(Number(e.target.value));
              setPage(1);
            }}
          >
            {subjectSets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.displayName}
              </option>
            ))}
          </select>
        </label>
        {workflows.length > 0 && (
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Retirement in workflow</span>
            <select
              className="rounded border border-gray-300 px-3 py-2"
              value={workflowId}
              onChange={(e) => setWorkflowId(Number(e.target.value))}
            >
              {workflows.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.displayName}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <StatusMessage outcome={outcome} />
      <QueryState query={subjects} what="subjects">
        {subjects.data?.subjects.length === 0 ? (
          <p>This set has no subjects yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
              <caption className="text-left text-gray-600">
                {meta?.count} subjects, page {page} of {meta?.page_count}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Subject</th>
                  <th scope="col">Preview</th>
                  <th scope="col">Metadata</th>
                  <th scope="col">Classifications</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {subjects.data?.subjects.map((s) => {
                  const status = statuses.data?.get(s.id);
                  const src = subjectImage(s);
                  const retired = !!status?.retired_at;
                  return (
                    <tr key={s.id} className="border-t border-gray-100 align-middle">
                      <td>{s.id}</td>
                      <td>
                        {src ? (
                          <img src={local(src)} alt={`Subject ${s.id}`} className="h-10 w-14 rounded object-cover" loading="lazy" />
                        ) : (
                          "—"
                        )}
                      </td>
                      <td className="max-w-xs truncate font-mono text-xs">{JSON.stringify(s.metadata)}</td>
                      <td>{status?.classifications_count ?? 0}</td>
                      <td data-testid={`subject-state-${s.id}`}>{retired ? `retired (${status!.retirement_reason ?? "?"})` : "active"}</td>
                      <td>
                        {workflows.length > 0 && (
                          <button type="button" className={buttonClass} onClick={() => void act(s.id, !retired)}>
                            {retired ? "Unretire" : "Retire"}
                            <span className="sr-only"> subject {s.id}</span>
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      {meta && meta.page_count > 1 && (
        <nav aria-label="Subject pages" className="flex items-center gap-2 text-sm">
          <button type="button" disabled={page <= 1} className={buttonClass} onClick={() => setPage((p) => p - 1)}>
            Previous page
          </button>
          <button type="button" disabled={page >= meta.page_count} className={buttonClass} onClick={() => setPage((p) => p + 1)}>
            Next page
          </button>
        </nav>
      )}
    </Panel>
  );
}
