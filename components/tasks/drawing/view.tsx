"use client";
import { InlineMarkdown } from "@/components/ui/markdown";
import { describeMark } from "@/lib/tasks/drawing/marks";
import { SUPPORTED_TOOLS, type Mark, type Tool } from "@/lib/classifier/task-flow";
import { toolColor } from "@/components/classifier/drawing/tool-style";
import type { TaskViewProps } from "../view-props";

/** A drawing task's tool chooser and list of marks (the marks themselves are drawn in the viewer). */
export function DrawingTaskView({ id, task, value, onChange, tool, onTool, frame }: TaskViewProps) {
  const t = task as { instruction?: string; tools: Tool[] };
  const marks = (value as Mark[]) ?? [];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 font-medium">{t.instruction ? <InlineMarkdown source={t.instruction} /> : "Mark the subject"}</legend>
      {t.tools.map((tl, i) => (
        <label
          key={i}
          className="flex items-center gap-3 rounded border border-gray-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
        >
          <input
            type="radio"
            name={`${id}-tool`}
            checked={tool === i}
            onChange={() => onTool(i)}
            disabled={!SUPPORTED_TOOLS.has(tl.type)}
          />
          <span aria-hidden className="inline-block h-3 w-3 rounded-full" style={{ background: toolColor(t.tools, i) }} />
          <span>
            {tl.label ? <InlineMarkdown source={tl.label} /> : tl.type}{" "}
            <span className="text-xs text-gray-600">
              ({tl.type}: {marks.filter((m) => m.tool === i).length})
            </span>
          </span>
        </label>
      ))}
      {marks.length > 0 && (
        <ul aria-label="Your marks" className="flex flex-col gap-1 text-sm">
          {marks.map((m, i) => (
            <li key={i} className="flex items-center justify-between gap-2">
              <span>
                {t.tools[m.tool]?.label ?? m.toolType} {describeMark(m)}
                {m.frame !== frame ? ` on image ${m.frame + 1}` : ""}
              </span>
              <button
                type="button"
                className="rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-100"
                onClick={() => onChange(marks.filter((_, j) => j !== i))}
              >
                Remove<span className="sr-only"> mark {i + 1}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
