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
          className="grid grid-cols-[minmax(0,40%)_minmax(0,1fr)_auto] items-center gap-2"
        >
          <span className={`truncate ${r.highlight ? "font-semibold text-brand-700" : ""}`} title={r.label}>
            {r.label}
            <span className="sr-only">: </span>
          </span>
          <span aria-hidden="true" className="h-3 rounded bg-gray-100" data-bar-track>
            <span
              className={`block h-3 rounded ${r.highlight ? "bg-brand-600" : "bg-gray-400"}`}
              data-bar-value={r.value}
              style={{ width: `${(r.value / max) * 100}%` }}
            />
          </span>
          <span className="tabular-nums">
            {r.value}
            {r.highlight && <span className="ml-1 rounded bg-brand-50 px-1 text-xs text-brand-700">{highlightNote}</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
