"use client";
import { taskDepths, taskLinks, unreachableTasks, type TaskDraft } from "@/lib/lab/task-editing";

const W = 120;
const H = 44;
const GAP_X = 70;
const GAP_Y = 24;

/**
 * The workflow's branching as a small graph: tasks in columns by how many steps from the first, arrows
 * for where answers and tasks lead (to "End" when nowhere). The same links are listed as text for screen
 * readers; tasks nothing leads to are flagged.
 */
export function BranchingGraph({ drafts }: { drafts: TaskDraft[] }) {
  const depth = taskDepths(drafts);
  const links = taskLinks(drafts);
  const unreachable = unreachableTasks(drafts);
  const columns = new Map<number, string[]>();
  for (const d of drafts) columns.set(depth.get(d.key)!, [...(columns.get(depth.get(d.key)!) ?? []), d.key]);
  const endColumn = Math.max(0, ...columns.keys()) + 1;
  const pos = new Map<string, { x: number; y: number }>();
  for (const [col, keys] of columns)
    keys.forEach((k, i) => {
      pos.set(k, { x: col * (W + GAP_X), y: i * (H + GAP_Y) });
    });
  const rows = Math.max(1, ...[...columns.values()].map((c) => c.length));
  const end = { x: endColumn * (W + GAP_X), y: ((rows - 1) * (H + GAP_Y)) / 2 };
  const width = end.x + W;
  const height = rows * (H + GAP_Y);
  const typeOf = new Map(drafts.map((d) => [d.key, String(d.task.type)]));

  return (
    <figure className="flex flex-col gap-2 rounded border border-gray-200 bg-white p-3">
      <figcaption className="text-sm font-semibold">Branching</figcaption>
      {/* Focusable so a keyboard can scroll a wide graph; the links are read from the list below. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus so a keyboard can scroll it */}
      <div className="overflow-x-auto" tabIndex={0} role="group" aria-label="Branching graph (the links are listed below)">
        <svg width={width} height={height} viewBox={`-4 -4 ${width + 8} ${height + 8}`} aria-hidden="true" className="max-w-none">
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill="#6b7280" />
            </marker>
          </defs>
          {links.map((l, i) => {
            const a = pos.get(l.from);
            const b = l.to ? pos.get(l.to) : end;
            if (!a || !b) return null;
            const x1 = a.x + W;
            const y1 = a.y + H / 2;
            const x2 = b.x;
            const y2 = b.y + H / 2;
            const back = x2 <= a.x;
            const path = back
              ? `M ${a.x + W / 2} ${a.y + H} C ${a.x + W / 2} ${a.y + H + 40}, ${b.x + W / 2} ${b.y + H + 40}, ${b.x + W / 2} ${b.y + H}`
              : `M ${x1} ${y1} C ${x1 + GAP_X / 2} ${y1}, ${x2 - GAP_X / 2} ${y2}, ${x2} ${y2}`;
            return (
              <g key={i}>
                <path
                  d={path}
                  fill="none"
                  stroke="#6b7280"
                  strokeWidth="1.5"
                  markerEnd="url(#arrow)"
                  strokeDasharray={l.label === "shows" || l.label === "shortcut" ? "4 3" : undefined}
                />
                {l.label && (
                  <text x={(x1 + x2) / 2} y={(y1 + y2) / 2 - 4} fontSize="10" textAnchor="middle" fill="#374151">
                    {l.label.length > 14 ? `${l.label.slice(0, 13)}…` : l.label}
                  </text>
                )}
              </g>
            );
          })}
          {drafts.map((d) => {
            const p = pos.get(d.key)!;
            const lost = unreachable.includes(d.key);
            return (
              <g key={d.key} transform={`translate(${p.x} ${p.y})`}>
                <rect width={W} height={H} rx="6" fill={lost ? "#fef3c7" : "#ecfdf5"} stroke={lost ? "#d97706" : "#047857"} />
                <text x={W / 2} y={18} textAnchor="middle" fontSize="13" fontWeight="600">
                  {d.key}
                </text>
                <text x={W / 2} y={34} textAnchor="middle" fontSize="10" fill="#374151">
                  {typeOf.get(d.key)}
                </text>
              </g>
            );
          })}
          <g transform={`translate(${end.x} ${end.y})`}>
            <rect width={W} height={H} rx="22" fill="#f3f4f6" stroke="#6b7280" />
            <text x={W / 2} y={27} textAnchor="middle" fontSize="13">
              End
            </text>
          </g>
        </svg>
      </div>
      <ul className="sr-only">
        {links.map((l, i) => (
          <li key={i}>
            {l.from} {l.label ? `(${l.label})` : ""} leads to {l.to ?? "the end"}
          </li>
        ))}
      </ul>
      {unreachable.length > 0 && (
        <p role="status" className="text-sm text-amber-800">
          Nothing leads to {unreachable.join(", ")}: volunteers will not see {unreachable.length === 1 ? "it" : "them"}.
        </p>
      )}
    </figure>
  );
}
