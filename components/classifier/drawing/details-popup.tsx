"use client";
import { useEffect, useRef } from "react";
import { isAnswered, type Mark, type Tool, type TaskValue } from "@/lib/classifier/task-flow";
import { TaskView } from "../task-view";

/**
 * The subtasks of one mark (its tool's `details`: questions or text), asked in a small dialog after the
 * mark is drawn. Answers are the mark's `details`, one `{value}` per subtask, as PFE records them.
 */
export function DetailsPopup({
  mark,
  index,
  tool,
  onChange,
  onClose,
  onDelete,
}: {
  mark: Mark;
  index: number;
  tool: Tool;
  onChange(m: Mark): void;
  onClose(): void;
  onDelete(): void;
}) {
  const box = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `index` is the trigger: when the popup moves to another mark, its first field takes the focus
  useEffect(() => {
    box.current?.querySelector<HTMLElement>("input, textarea, button")?.focus();
  }, [index]);
  const subtasks = tool.details ?? [];
  const valueAt = (i: number) => (mark.details[i]?.value ?? null) as TaskValue;
  const ready = subtasks.every((t, i) => isAnswered(t, valueAt(i)));
  return (
    <div
      ref={box}
      role="dialog"
      aria-label={`About ${tool.label || tool.type} ${index + 1}`}
      className="flex flex-col gap-3 rounded-lg border-2 border-brand-600 bg-white p-3 shadow-lg"
      onKeyDown={(e) => e.key === "Escape" && ready && onClose()}
    >
      {subtasks.map((t, i) => (
        <TaskView
          key={i}
          taskKey={`mark${index}-detail${i}`}
          task={t}
          value={valueAt(i)}
          onChange={(v) => onChange({ ...mark, details: subtasks.map((_, j) => (j === i ? { value: v } : { value: valueAt(j) })) })}
        />
      ))}
      <div className="flex gap-2">
        <button type="button" onClick={onDelete} className="rounded border border-gray-300 px-3 py-1 hover:bg-gray-100">
          Delete this mark
        </button>
        <button
          type="button"
          disabled={!ready}
          onClick={onClose}
          className="ml-auto rounded bg-brand-600 px-4 py-1 font-semibold text-white disabled:opacity-50"
        >
          OK
        </button>
      </div>
    </div>
  );
}
