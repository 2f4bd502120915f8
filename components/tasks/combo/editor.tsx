"use client";
import { Check } from "@/components/ui/controls";
import { type EditorProps, NextField } from "../editor-common";

/** A combo: other tasks shown together on one page, in order. */
export function ComboEditor({ taskName, task, onChange, others }: EditorProps) {
  const members: string[] = task.tasks ?? [];
  return (
    <div className="flex flex-col gap-2">
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="font-medium">{taskName} shows these tasks together</legend>
        {others.map(({ value: k, label }) => (
          <Check
            key={k}
            label={
              <>
                {label}
                <span className="sr-only"> in {taskName}</span>
              </>
            }
            checked={members.includes(k)}
            onChange={(on) => onChange({ ...task, tasks: on ? [...members, k] : members.filter((m) => m !== k) })}
          />
        ))}
      </fieldset>
      <NextField taskName={taskName} task={task} onChange={onChange} others={others.filter((o) => !members.includes(o.value))} />
    </div>
  );
}
