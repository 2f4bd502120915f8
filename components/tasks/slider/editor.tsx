"use client";
import { TextInput } from "@/components/ui/controls";
import { type EditorProps, InstructionField, NextField } from "../editor-common";

/** A slider: its range, step and starting value (strings, as the established clients store them). */
export function SliderEditor({ taskName, task, onChange, others }: EditorProps) {
  const num = (field: string, label: string) => (
    <TextInput
      label={`${taskName} ${label}`}
      type="number"
      required
      value={String(task[field] ?? "")}
      onChange={(v) => onChange({ ...task, [field]: v })}
      className="w-32"
    />
  );
  return (
    <div className="flex flex-col gap-2">
      <InstructionField taskName={taskName} task={task} onChange={onChange} />
      <div className="flex flex-wrap gap-2">
        {num("min", "minimum")}
        {num("max", "maximum")}
        {num("step", "step")}
        {num("defaultValue", "starting value")}
      </div>
      <NextField taskName={taskName} task={task} onChange={onChange} others={others} />
    </div>
  );
}
