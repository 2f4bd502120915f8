/** One bar: its label, its value, and whether it stands out (the most likely answer). */
export interface BarRow {
  key: string;
  label: string;
  value: number;
  highlight?: boolean;
}

/**
 * Labelled horizontal bars, longest = `max` (by default the largest value): answer counts, votes. Lists drawn
 * side by side pass one `max`, so equal counts are equal bars across them. A list a screen reader reads as
 * "label: value"; the bars themselves are decoration. `highlightNote` names what a highlighted bar is.
 */
export function BarRows({
  rows,
  label,
  highlightNote = "most votes",
  max: scale,
}: {
  rows: BarRow[];
  label: string;
  highlightNote?: string;
  max?: number;
}) {
  const max = Math.max(1, scale ?? 0, ...rows.map((r) => r.value));
  return (
    <ul aria-label={label} className="flex flex-col gap-1 text-sm">
      {rows.map((r) => (
        <li
          key={r.key}
          data-highlight={r.highlight ? "true" : undefined}
          // The value column has a fixed width, so every track of a view is as long as every other.
          className="grid grid-cols-[minmax(0,40%)_minmax(0,1fr)_3.5rem] items-center gap-2"
        >
          <span className="flex min-w-0 items-center gap-1">
            <span className={`truncate ${r.highlight ? "font-semibold text-brand-700" : ""}`} title={r.label}>
              {r.label}
            </span>
            {r.highlight && <span className="shrink-0 rounded bg-brand-50 px-1 text-xs text-brand-700">{highlightNote}</span>}
            <span className="sr-only">: </span>
          </span>
          <span aria-hidden="true" className="h-3 rounded bg-gray-100" data-bar-track>
            <span
              className={`block h-3 rounded ${r.highlight ? "bg-brand-600" : "bg-gray-400"}`}
              data-bar-value={r.value}
              style={{ width: `${(r.value / max) * 100}%` }}
            />
          </span>
          <span className="text-right tabular-nums">{r.value}</span>
        </li>
      ))}
    </ul>
  );
}
