// The numbers behind a counts chart, as a table inside a disclosure (what screen readers and the curious
// read), and the bucket labels both use. No chart library here: pages load it apart.
import type { CountBucket } from "@/components/ui/wire-types";
import { formatDay, formatNumber } from "@/lib/text/format";

export type { CountBucket };

export function formatBucket(iso: string, period: string): string {
  return formatDay(iso, period === "year" ? "year" : period === "month" ? "month" : "day");
}

/** What a period's column (and a chart's horizontal axis) is called. */
export function periodHeading(period: string): string {
  return period === "week" ? "Week beginning" : period === "day" ? "Day" : period === "year" ? "Year" : "Month";
}

/**
 * The chart in words: the range, the total, and the busiest period
 * ("Jan 2026 to Mar 2026: 1,204 classifications over 3 months; the busiest month was Feb 2026, with 800.").
 */
export function countsSummary(data: CountBucket[], period: string): string {
  if (!data.length) return "No classifications in this range.";
  const n = formatNumber;
  const total = data.reduce((a, b) => a + b.count, 0);
  const busiest = data.reduce((a, b) => (b.count > a.count ? b : a));
  const first = formatBucket(data[0].period, period);
  const last = formatBucket(data[data.length - 1].period, period);
  const span = data.length === 1 ? first : `${first} to ${last}`;
  const periods = `${n(data.length)} ${period}${data.length === 1 ? "" : "s"}`;
  const week = period === "week" ? "week beginning " : "";
  return (
    `${span}: ${n(total)} classification${total === 1 ? "" : "s"} over ${periods}` +
    (data.length > 1 ? `; the busiest ${period} was ${week}${formatBucket(busiest.period, period)}, with ${n(busiest.count)}.` : ".")
  );
}

export function CountsTable({
  data,
  period,
  caption,
  summary = "Data table",
}: {
  data: CountBucket[];
  period: string;
  caption: string;
  summary?: string;
}) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-brand-700">{summary}</summary>
      <table className="mt-2 w-full max-w-md tabular-nums" data-testid="counts-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-left">
            <th scope="col" className="py-1 font-semibold">
              {periodHeading(period)}
            </th>
            <th scope="col" className="py-1 text-right font-semibold">
              Classifications
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.period} className="border-t border-gray-100">
              <td className="py-1">{formatBucket(d.period, period)}</td>
              <td className="py-1 text-right">{formatNumber(d.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
