"use client";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { formatBucket, type CountBucket } from "./counts-table";

/** Classifications per period as bars; the same numbers are in the table beside it for screen readers. */
export function CountsChart({ data, period }: { data: CountBucket[]; period: string }) {
  const rows = data.map((d) => ({ label: (period === "week" ? "w/c " : "") + formatBucket(d.period, period), count: d.count }));
  return (
    <div
      className="h-72 w-full"
      role="img"
      aria-label={`Bar chart of classifications per ${period}; the data table below has the same numbers`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={56} />
          <Tooltip formatter={(v) => [Number(v).toLocaleString(), "Classifications"]} />
          <Bar dataKey="count" fill="#1f6f5c" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
