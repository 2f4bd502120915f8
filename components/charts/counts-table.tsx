// The numbers behind a counts chart, as a table inside a disclosure (what screen readers and the curious
// read), and the bucket labels both use. No chart library here: pages load it apart.
import type { CountBucket } from "@/components/ui/wire-types";

export type { CountBucket };

export function formatBucket(iso: string, period: string): string {
  const d = new Date(iso);
  const opts: Intl.DateTimeFormatOptions =
    period === "year"
      ? { year: "numeric", timeZone: "UTC" }
      : period === "month"
        ? { year: "numeric", month: "short", timeZone: "UTC" }
        : { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" };
  return d.toLocaleDateString("en-GB", opts);
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
      <table className="mt-2 w-full max-w-md" data-testid="counts-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-left">
            <th scope="col">{period === "week" ? "Week beginning" : period === "day" ? "Day" : "Period"}</th>
            <th scope="col" className="text-right">
              Classifications
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.period} className="border-t border-gray-100">
              <td>{formatBucket(d.period, period)}</td>
              <td className="text-right">{d.count.toLocaleString("en-GB")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
