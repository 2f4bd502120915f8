"use client";
import { InlineMarkdown } from "@/components/ui/markdown";
import { TaskHelp } from "../task-help";
import { useRef } from "react";
import { useSubjectText } from "@/components/classifier/subject-text";
import type { Highlight } from "@/lib/tasks/types";
import type { TaskViewProps } from "../view-props";
import { QueryState } from "@/components/ui/query-state";

/** Offsets of the selection within `root`'s text, or null when the selection is empty or elsewhere. */
function selectionOffsets(root: HTMLElement): { start: number; end: number } | null {
  const sel = window.getSelection();
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const before = document.createRange();
  before.selectNodeContents(root);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  return { start, end: start + range.toString().length };
}

/**
 * A highlighter task (FEM tasks/experimental/highlighter): select a span of the text subject, then press a
 * label; the value is `[{start, end, text, labelInformation: {color, label}}]`, offsets in characters.
 */
export function HighlighterTaskView({ taskKey, task, value: raw, onChange, textUrl }: TaskViewProps) {
  const value = (raw as Highlight[] | null) ?? [];
  const t = task as { instruction?: string; help?: string; highlighterLabels?: { label: string; color?: string }[] };
  const labels = t.highlighterLabels ?? [];
  const text = useSubjectText(textUrl);
  const root = useRef<HTMLParagraphElement>(null);
  const content = text.data ?? "";

  const pieces: { s: string; h?: Highlight }[] = [];
  let at = 0;
  for (const h of [...value].sort((a, b) => a.start - b.start)) {
    if (h.start < at) continue;
    pieces.push({ s: content.slice(at, h.start) }, { s: content.slice(h.start, h.end), h });
    at = h.end;
  }
  pieces.push({ s: content.slice(at) });

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 font-medium">{t.instruction ? <InlineMarkdown source={t.instruction} /> : "Highlight the text"}</legend>
      {!textUrl ? (
        <p className="text-sm text-gray-600">This subject has no text to highlight.</p>
      ) : (
        <QueryState query={text} what="text">
          <p
            ref={root}
            id={`task-${taskKey}-text`}
            data-testid="highlighter-text"
            className="whitespace-pre-wrap rounded border border-gray-200 bg-gray-50 p-3 leading-relaxed"
          >
            {pieces.map((p, i) =>
              p.h ? (
                <mark key={i} style={{ background: p.h.labelInformation.color || "#fde68a" }} title={p.h.labelInformation.label}>
                  {p.s}
                </mark>
              ) : (
                <span key={i}>{p.s}</span>
              ),
            )}
          </p>
        </QueryState>
      )}
      <p className="text-sm text-gray-600">Select some text, then choose its label.</p>
      <div role="group" aria-label="Labels" className="flex flex-wrap gap-2">
        {labels.map((l, i) => (
          <button
            key={i}
            type="button"
            // Keep the selection: a mouse press on a button would otherwise clear it first.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              const o = root.current && selectionOffsets(root.current);
              if (!o) return;
              onChange([
                ...value,
                {
                  start: o.start,
                  end: o.end,
                  text: content.slice(o.start, o.end),
                  labelInformation: { color: l.color ?? "", label: l.label },
                },
              ]);
              window.getSelection()?.removeAllRanges();
            }}
            className="flex items-center gap-2 rounded border border-gray-300 px-3 py-1 hover:bg-gray-100 focus:outline focus:outline-2 focus:outline-brand-600"
          >
            <span aria-hidden className="inline-block h-3 w-3 rounded" style={{ background: l.color || "#fde68a" }} />
            Highlight as {l.label}
          </button>
        ))}
      </div>
      {value.length > 0 && (
        <ul aria-label="Highlights" className="flex flex-col gap-1 text-sm">
          {value.map((h, i) => (
            <li key={i} className="flex items-center justify-between gap-2">
              <span>
                {h.labelInformation.label}: “{h.text}”
              </span>
              <button
                type="button"
                className="rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-100"
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                Remove<span className="sr-only"> highlight {i + 1}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <TaskHelp help={t.help} />
    </fieldset>
  );
}
