"use client";
import { Check } from "@/components/ui/controls";
import { type EditorProps, InstructionField, HelpField, NextField } from "../editor-common";

/** A free-text task. */
export function TextTaskEditor({ taskName, task, onChange, others }: EditorProps) {
  return (
    <div className="flex flex-col gap-2">
      <InstructionField taskName={taskName} task={task} onChange={onChange} />
      <HelpField taskName={taskName} task={task} onChange={onChange} />
      <Check label={`${taskName} must be answered`} checked={!!task.required} onChange={(v) => onChange({ ...task, required: v })} />
      <NextField taskName={taskName} task={task} onChange={onChange} others={others} />
    </div>
  );
}
