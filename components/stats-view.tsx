"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { CountsChart } from "@/components/charts/counts-chart";
import { countsSummary, CountsTable } from "@/components/charts/counts-table";
import { apiGet, countsGet } from "@/components/ui/api-client";
import { QueryState } from "@/components/ui/query-state";
import type { CountsAnswer, Records, WorkflowRecord } from "@/components/ui/wire-types";
import { formatNumber } from "@/lib/text/format";

const PERIODS = ["day", "week", "month", "year"] as const;

const fetchCounts = (params: URLSearchParams) => countsGet<CountsAnswer>(`/classifications?${params}`);

/** The public stats page: totals and classifications over time for everything, a project or a workflow. */
export function StatsView({ projects }: { projects: { id: string; display_name: string }[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const projectId = search.get("project_id") ?? "";
  const workflowId = search.get("workflow_id") ?? "";
  const period = (PERIODS as readonly string[]).includes(search.get("period") ?? "") ? search.get("period")! : "month";
  const startDate = search.get("start_date") ?? "";
  const endDate = search.get("end_date") ?? "";

  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    router.replace(`${pathname}?${next}`, { scroll: false });
  };

  const query = new URLSearchParams({ period });
  if (workflowId) query.set("workflow_id", workflowId);
  else if (projectId) query.set("project_id", projectId);
  if (startDate) query.set("start_date", startDate);
  if (endDate) query.set("end_date", endDate);

  const counts = useQuery({
    queryKey: ["counts", query.toString()],
    queryFn: () => fetchCounts(query),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const workflows = useQuery({
    queryKey: ["workflows", projectId],
    queryFn: () => apiGet<Records<"workflows", WorkflowRecord>>(`/workflows?project_id=${projectId}&page_size=100`),
    enabled: !!projectId,
  });
  const scopeName = workflowId
    ? `workflow ${workflows.data?.workflows.find((w) => w.id === workflowId)?.display_name ?? workflowId}`
    : projectId
      ? (projects.find((p) => p.id === projectId)?.display_name ?? `project ${projectId}`)
      : "all projects";

  return (
    <section aria-labelledby="stats-heading" className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 id="stats-heading" className="text-2xl font-bold">
          Classification statistics
        </h1>
        <p className="text-sm text-gray-600">
          How many classifications volunteers have made, over time: for every public project, one project or one of its workflows. The
          numbers refresh every 30 seconds.
        </p>
      </div>
      <form
        className="grid grid-cols-1 gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-6"
        onSubmit={(e) => e.preventDefault()}
      >
        <h2 className="sr-only">What to count</h2>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="stats-project" className="text-sm font-medium">
            Project
          </label>
          <select
            id="stats-project"
            className="w-full min-w-0 rounded border border-gray-300 px-2 py-1.5"
            value={projectId}
            onChange={(e) => set({ project_id: e.target.value, workflow_id: "" })}
          >
            <option value="">All projects</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.display_name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="stats-workflow" className="text-sm font-medium">
            Workflow
          </label>
          <select
            id="stats-workflow"
            className="w-full min-w-0 rounded border border-gray-300 px-2 py-1.5 disabled:opacity-50"
            value={workflowId}
            disabled={!projectId}
            onChange={(e) => set({ workflow_id: e.target.value })}
          >
            <option value="">All workflows</option>
            {(workflows.data?.workflows ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.display_name}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="flex min-w-0 flex-col gap-1 lg:col-span-2">
          <legend className="text-sm font-medium">Period</legend>
          <div className="flex overflow-hidden rounded border border-gray-300" role="radiogroup">
            {PERIODS.map((p) => (
              <label
                key={p}
                className={
                  "flex-1 cursor-pointer px-2 py-1.5 text-center text-sm has-[:focus-visible]:outline " +
                  `has-[:focus-visible]:outline-2 ${p === period ? "bg-brand-600 text-white" : "bg-white hover:bg-gray-100"}`
                }
              >
                <input
                  type="radio"
                  name="period"
                  value={p}
                  checked={p === period}
                  onChange={() => set({ period: p })}
                  className="sr-only"
                />
                {p[0].toUpperCase() + p.slice(1)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="stats-start" className="text-sm font-medium">
            From
          </label>
          <input
            id="stats-start"
            type="date"
            className="w-full min-w-0 rounded border border-gray-300 px-2 py-1.5"
            value={startDate}
            max={endDate || undefined}
            onChange={(e) => set({ start_date: e.target.value })}
          />
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="stats-end" className="text-sm font-medium">
            To
          </label>
          <input
            id="stats-end"
            type="date"
            className="w-full min-w-0 rounded border border-gray-300 px-2 py-1.5"
            value={endDate}
            min={startDate || undefined}
            onChange={(e) => set({ end_date: e.target.value })}
          />
        </div>
      </form>

      <div className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-4">
        <h2 className="text-lg font-semibold break-words">Classifications, {scopeName}</h2>
        <QueryState query={counts} what="counts" skeleton={6} retry={() => void counts.refetch()}>
          {counts.data && (
            <div className="flex flex-col gap-4" aria-busy={counts.isFetching}>
              <p className="flex flex-col">
                <span className="text-sm text-gray-600">Total{startDate || endDate ? " in the chosen range" : ""}</span>
                <span className="text-4xl font-bold text-brand-700 tabular-nums" data-testid="total-count">
                  {formatNumber(counts.data.total_count)}
                </span>
              </p>
              <div className="flex flex-col gap-2">
                <h3 className="text-base font-semibold">Classifications per {period}</h3>
                <figure className="flex flex-col gap-2">
                  <CountsChart
                    data={counts.data.data ?? []}
                    period={period}
                    start={startDate || undefined}
                    end={endDate || undefined}
                    describedBy="stats-chart-summary"
                    emptyText={
                      startDate || endDate
                        ? "Nothing to chart: choose a wider range of dates, or another project or workflow."
                        : `Nothing to chart: no classifications in these ${period}s yet.`
                    }
                  />
                  <figcaption id="stats-chart-summary" className="text-sm text-gray-700">
                    {countsSummary(counts.data.data ?? [], period)}
                  </figcaption>
                </figure>
                {!!counts.data.data?.length && (
                  <CountsTable data={counts.data.data} period={period} caption={`Classifications per ${period}, ${scopeName}`} />
                )}
              </div>
            </div>
          )}
        </QueryState>
      </div>
    </section>
  );
}
