/**
 * The one progress bar: a track with a brand-coloured fill as long as value / max, empty at 0 (never the
 * browser's own `<progress>`, whose colour and emptiness vary). A screen reader reads `label` and the share.
 */
export function ProgressBar({
  value,
  max,
  label,
  className = "w-full",
  size = "h-2",
}: {
  value: number;
  max: number;
  /** The bar's accessible name ("Import progress", "Wildebeest: 40% complete"). */
  label: string;
  className?: string;
  size?: string;
}) {
  const share = progressShare(value, max);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max > 0 ? max : 1}
      aria-valuenow={Math.min(Math.max(0, value), max > 0 ? max : 1)}
      className={`${className} ${size} overflow-hidden rounded-full bg-gray-200`}
    >
      <div data-progress-fill className={`${size} rounded-full bg-brand-600`} style={{ width: `${share * 100}%` }} />
    </div>
  );
}

/** value / max between 0 and 1 (0 when there is nothing to measure against, or nothing done). */
export function progressShare(value: number, max: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(max) || max <= 0 || value <= 0) return 0;
  return Math.min(1, value / max);
}
