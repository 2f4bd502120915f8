import { Fragment } from "react";
import { BarRows } from "@/components/ui/bar-rows";
import { consensusRows, reductionView } from "@/lib/lab/reduction-view";
import type { Task } from "@/lib/tasks/types";

// A reduction as the monitor and the dry run show it: drawn from its data (lib/lab/reduction-view.ts), with
// the full JSON behind a disclosure.

/**
 * A reduction's data drawn as its reducer's output reads: answer bars, the consensus, fields; nothing when
 * only JSON will do. `scale` is the count a full bar stands for, shared by every reduction of a view.
 */
export function ReductionBody({ data, task, name, scale }: { data: unknown; task: Task | undefined; name: string; scale?: number }) {
  const view = reductionView(data, task);
  if (view.kind === "counts")
    return (
      <BarRows
        max={scale}
        label={`${name}: answer counts`}
        rows={view.rows.map((r) => ({ key: r.key, label: r.label, value: r.count, highlight: r.top }))}
      />
    );
  if (view.kind === "consensus") {
    if (view.key === null) return <p className="text-sm text-gray-600">No votes yet.</p>;
    return (
      <div className="flex flex-col gap-1">
        <p className="text-sm">
          Most likely: <strong className="rounded bg-brand-50 px-1 text-brand-700">{view.label}</strong>
          {view.agreement !== null && ` (${Math.round(view.agreement * 100)}% agreement)`}
        </p>
        <BarRows max={scale} label={`${name}: votes`} highlightNote="most likely" rows={consensusRows(view, task)} />
      </div>
    );
  }
  if (view.kind === "fields")
    return (
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-sm">
        {view.rows.map((r) => (
          <Fragment key={r.key}>
            <dt className="text-gray-600">{r.key}</dt>
            <dd className="break-words font-mono text-xs leading-5">{r.text}</dd>
          </Fragment>
        ))}
      </dl>
    );
  return null;
}

/** The full JSON one click away: a disclosure whose block scrolls rather than cutting anything off. */
export function JsonToggle({ data, name }: { data: unknown; name: string }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-brand-700 underline">
        Show JSON<span className="sr-only"> of {name}</span>
      </summary>
      <pre
        className="mt-1 max-h-64 overflow-auto rounded bg-gray-50 p-2 font-mono text-xs"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus so a keyboard can scroll it
        tabIndex={0}
        role="group"
        aria-label={`JSON of ${name}`}
      >
        {JSON.stringify(data, null, 2)}
      </pre>
    </details>
  );
}
