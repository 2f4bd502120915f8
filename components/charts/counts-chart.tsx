"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { formatBucket, periodHeading, type CountBucket } from "./counts-table";
import { formatNumber } from "@/lib/text/format";

/**
 * Classifications per period as bars, with labelled axes and a legend. The chart is one image to screen
 * readers: `describedBy` names the element that says in words what it shows (a summary), and the table
 * beside it has the same numbers.
 */
export function CountsChart({ data, period, describedBy }: { data: CountBucket[]; period: string; describedBy?: string }) {
  const rows = data.map((d) => ({ label: (period === "week" ? "w/c " : "") + formatBucket(d.period, period), count: d.count }));
  return (
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
            dataKey="label"
            tick={{ fontSize: 12 }}
            minTickGap={16}
            height={44}
            label={{ value: periodHeading(period), position: "insideBottom", fontSize: 12, fill: "#4b5563" }}
          />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 12 }}
            width={64}
            label={{ value: "Classifications", angle: -90, position: "insideLeft", fontSize: 12, fill: "#4b5563", dy: 44 }}
          />
          <Tooltip formatter={(v) => [formatNumber(Number(v)), "Classifications"]} />
          <Legend verticalAlign="top" align="right" height={24} iconType="square" wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="count" name={`Classifications per ${period}`} fill="#1f6f5c" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
