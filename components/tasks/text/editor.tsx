"use client";
import { Check } from "@/components/ui/controls";
import { type EditorProps, InstructionField, HelpField, NextField } from "../editor-common";

/** A free-text task. */
export function TextTaskEditor({ taskKey, task, onChange, others }: EditorProps) {
  return (
    <div className="flex flex-col gap-2">
      <InstructionField taskKey={taskKey} task={task} onChange={onChange} />
      <HelpField taskKey={taskKey} task={task} onChange={onChange} />
      <Check label={`${taskKey} must be answered`} checked={!!task.required} onChange={(v) => onChange({ ...task, required: v })} />
      <NextField taskKey={taskKey} task={task} onChange={onChange} others={others} />
    </div>
  );
}
