"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { formatBucket, periodHeading, type CountBucket } from "./counts-table";
import { fillPeriods } from "./fill-periods";
import { formatDay, formatNumber } from "@/lib/text/format";

/**
 * Classifications per period as bars, with labelled axes and a legend. The axis covers the whole range
 * (`start`..`end`, else the last 30 days, 12 weeks, 12 months or 5 years; fill-periods.ts), periods without
 * classifications as 0: a single day of data is one narrow bar, not the whole chart. With nothing in the
 * range, the axes and their ticks stay and `emptyText` says so. The chart is one image to screen readers:
 * `describedBy` names the element that says in words what it shows (a summary), and the table beside it has
 * the same numbers.
 */
export function CountsChart({
  data,
  period,
  describedBy,
  start,
  end,
  emptyText = "No classifications in this period yet.",
}: {
  data: CountBucket[];
  period: string;
  describedBy?: string;
  /** The range shown (YYYY-MM-DD), when one was chosen. */
  start?: string;
  end?: string;
  emptyText?: string;
}) {
  const filled = fillPeriods(data, period, { start, end });
  const rows = filled.map((d) => ({
    key: d.period,
    label: (period === "week" ? "w/c " : "") + formatBucket(d.period, period),
    count: d.count,
  }));
  const empty = filled.every((d) => d.count === 0);
  // Days and weeks name the day and month on the axis (the year is in the tooltip and the table).
  const tick = (iso: string) => (period === "day" || period === "week" ? formatDay(iso, "day-month") : formatBucket(iso, period));
  return (
    <div className="relative" data-testid="counts-chart">
      <div
        className="h-72 w-full"
        role="img"
        aria-label={`Bar chart of classifications per ${period}; the data table below has the same numbers`}
        aria-describedby={describedBy}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="key"
              tickFormatter={tick}
              tick={{ fontSize: 12 }}
              minTickGap={16}
              // Labels that would collide are left out at an even step (every other month, say), never one here and there.
              interval="equidistantPreserveStart"
              height={44}
              label={{ value: periodHeading(period), position: "insideBottom", fontSize: 12, fill: "#4b5563" }}
            />
            <YAxis
              allowDecimals={false}
              // At least 0 to 4, so an empty or quiet range still has labelled ticks.
              domain={[0, (max: number) => Math.max(4, max)]}
              tick={{ fontSize: 12 }}
              width={64}
              label={{ value: "Classifications", angle: -90, position: "insideLeft", fontSize: 12, fill: "#4b5563", dy: 44 }}
            />
            <Tooltip
              labelFormatter={(iso) => rows.find((r) => r.key === iso)?.label ?? String(iso)}
              formatter={(v) => [formatNumber(Number(v)), "Classifications"]}
            />
            <Legend verticalAlign="top" align="right" height={24} iconType="square" wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="count" name={`Classifications per ${period}`} fill="#1f6f5c" maxBarSize={48} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      {empty && (
        <p
          className="absolute top-1/3 right-2 left-20 rounded bg-white/90 px-3 py-2 text-center text-sm text-gray-700"
          data-testid="chart-empty"
        >
          {emptyText}
        </p>
      )}
    </div>
  );
}
