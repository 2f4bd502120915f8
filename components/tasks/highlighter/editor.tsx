"use client";
import { TextInput, buttonClass } from "@/components/ui/controls";
import type { TaskDef } from "@/lib/tasks/types";
import { type EditorProps, InstructionField, NextField } from "../editor-common";

/** A highlighter for text subjects: labels with colours. */
export function HighlighterEditor({ taskName, task, onChange, others }: EditorProps) {
  const labels: TaskDef[] = task.highlighterLabels ?? [];
  const set = (i: number, l: TaskDef) => onChange({ ...task, highlighterLabels: labels.map((x, j) => (j === i ? l : x)) });
  return (
    <div className="flex flex-col gap-2">
      <InstructionField taskName={taskName} task={task} onChange={onChange} />
      {labels.map((l, i) => (
        <div key={i} className="flex flex-wrap items-end gap-2 pl-4">
          <TextInput
            label={`${taskName} label ${i + 1}`}
            required
            value={String(l.label ?? "")}
            onChange={(v) => set(i, { ...l, label: v })}
          />
          <TextInput
            label={`${taskName} label ${i + 1} colour`}
            type="color"
            value={String(l.color ?? "#ff0000")}
            onChange={(v) => set(i, { ...l, color: v })}
            className="w-24"
          />
          {labels.length > 1 && (
            <button
              type="button"
              className={buttonClass}
              onClick={() => onChange({ ...task, highlighterLabels: labels.filter((_, j) => j !== i) })}
            >
              Remove
              <span className="sr-only">
                {" "}
                {taskName} label {i + 1}
              </span>
            </button>
          )}
        </div>
      ))}
      <button
        type="button"
        className={`${buttonClass} self-start`}
        onClick={() => onChange({ ...task, highlighterLabels: [...labels, { label: "", color: "#00a000" }] })}
      >
        Add a label<span className="sr-only"> to {taskName}</span>
      </button>
      <NextField taskName={taskName} task={task} onChange={onChange} others={others} />
    </div>
  );
}
