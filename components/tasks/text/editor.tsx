"use client";
import { Check, TextBox, TextInput } from "@/components/ui/controls";
import { NextSelect, type EditorProps } from "../editor-common";

/** A free-text task. */
export function TextTaskEditor({ taskKey, task, onChange, others }: EditorProps) {
  return (
    <div className="flex flex-col gap-2">
      <TextInput
        label={`${taskKey} instruction`}
        required
        value={String(task.instruction ?? "")}
        onChange={(v) => onChange({ ...task, instruction: v })}
      />
      <TextBox
        label={`${taskKey} help (Markdown, shown on request)`}
        value={String(task.help ?? "")}
        onChange={(v) => onChange({ ...task, help: v })}
      />
      <Check label={`${taskKey} must be answered`} checked={!!task.required} onChange={(v) => onChange({ ...task, required: v })} />
      <NextSelect
        label={`${taskKey} then goes to`}
        value={String(task.next ?? "")}
        onChange={(v) => onChange({ ...task, next: v })}
        others={others}
      />
    </div>
  );
}
