"use client";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { CountsTable } from "@/components/charts/counts-table";
import { countsGet } from "@/components/ui/api-client";
import type { CountsAnswer } from "@/components/ui/wire-types";
import { formatNumber } from "@/lib/text/format";
import { QueryState } from "@/components/ui/query-state";

// The chart library is large: it loads after the page, in a chunk of its own.
const CountsChart = lazy(() => import("@/components/charts/counts-chart").then((m) => ({ default: m.CountsChart })));

/** Classifications of the project per day over the last 30 days, as a chart and a table. */
export function ProjectStatistics({ projectId }: { projectId: string }) {
  const start = new Date(Date.now() - 29 * 86400_000).toISOString().slice(0, 10);
  const counts = useQuery({
    queryKey: ["project-counts", projectId, start],
    queryFn: () => countsGet<CountsAnswer>(`/classifications?project_id=${projectId}&period=day&start_date=${start}`),
  });
  const data = counts.data?.data ?? [];
  const recent = data.reduce((a, b) => a + b.count, 0);
  return (
    <QueryState
      query={counts}
      what="statistics"
      retry={() => void counts.refetch()}
      loading={
        <p role="status" className="h-72 animate-pulse rounded bg-gray-100 p-4 text-gray-600">
          Loading statistics…
        </p>
      }
    >
      <div className="flex flex-col gap-2">
        <p className="text-sm text-gray-700" data-testid="recent-classifications">
          {formatNumber(recent)} classifications in the last 30 days.
        </p>
        <Suspense fallback={<div className="h-72 animate-pulse rounded bg-gray-100" />}>
          <CountsChart data={data} period="day" start={start} emptyText="No classifications in the last 30 days yet." />
        </Suspense>
        {data.length > 0 && <CountsTable data={data} period="day" caption="Classifications per day" summary="The numbers as a table" />}
      </div>
    </QueryState>
  );
}
