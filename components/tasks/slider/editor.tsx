"use client";
import { TextInput } from "@/components/ui/controls";
import { NextSelect, type EditorProps } from "../editor-common";

/** A slider: its range, step and starting value (strings, as the established clients store them). */
export function SliderEditor({ taskKey, task, onChange, others }: EditorProps) {
  const num = (field: string, label: string) => (
    <TextInput
      label={`${taskKey} ${label}`}
      type="number"
      required
      value={String(task[field] ?? "")}
      onChange={(v) => onChange({ ...task, [field]: v })}
      className="w-32"
    />
  );
  return (
    <div className="flex flex-col gap-2">
      <TextInput
        label={`${taskKey} instruction`}
        required
        value={String(task.instruction ?? "")}
        onChange={(v) => onChange({ ...task, instruction: v })}
      />
      <div className="flex flex-wrap gap-2">
        {num("min", "minimum")}
        {num("max", "maximum")}
        {num("step", "step")}
        {num("defaultValue", "starting value")}
      </div>
      <NextSelect
        label={`${taskKey} then goes to`}
        value={String(task.next ?? "")}
        onChange={(v) => onChange({ ...task, next: v })}
        others={others}
      />
    </div>
  );
}
