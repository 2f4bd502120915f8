"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CountsChart } from "@/components/charts/counts-chart";
import { countsSummary, CountsTable } from "@/components/charts/counts-table";
import { countsGet } from "@/components/ui/api-client";
import { Select } from "@/components/ui/controls";
import { EmptyState, QueryState } from "@/components/ui/query-state";
import type { CountsAnswer } from "@/components/ui/wire-types";
import { formatNumber } from "@/lib/text/format";

const PERIODS = ["day", "week", "month", "year"];

/** The volunteer's own classifications over time (/counts/classifications/users/<id>): a total, the chart, its table. */
export function MyCounts({ userId }: { userId: number }) {
  const [period, setPeriod] = useState("month");
  const counts = useQuery({
    queryKey: ["my-counts", userId, period],
    queryFn: () => countsGet<CountsAnswer>(`/classifications/users/${userId}?period=${period}`),
  });
  return (
    <div className="flex flex-col gap-3">
      <div className="w-40">
        <Select label="Period" value={period} options={PERIODS} onChange={setPeriod} />
      </div>
      <QueryState query={counts} what="your counts" skeleton={6} retry={() => void counts.refetch()}>
        {counts.data && (
          <>
            <p className="flex flex-col">
              <span className="text-sm text-gray-600">Classifications in all</span>
              <span className="text-3xl font-bold text-brand-700 tabular-nums" data-testid="my-total">
                {formatNumber(counts.data.total_count)}
              </span>
            </p>
            {counts.data.data?.length ? (
              <figure className="flex flex-col gap-2">
                <CountsChart data={counts.data.data} period={period} describedBy="my-counts-summary" />
                <figcaption id="my-counts-summary" className="text-sm text-gray-700">
                  {countsSummary(counts.data.data, period)}
                </figcaption>
                <CountsTable data={counts.data.data} period={period} caption={`Your classifications per ${period}`} />
              </figure>
            ) : (
              <EmptyState>No classifications yet: the chart fills in as you classify.</EmptyState>
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}
