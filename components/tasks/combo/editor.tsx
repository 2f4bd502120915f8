"use client";
import { Check } from "@/components/ui/controls";
import { type EditorProps, NextField } from "../editor-common";

/** A combo: other tasks shown together on one page, in order. */
export function ComboEditor({ taskKey, task, onChange, others }: EditorProps) {
  const members: string[] = task.tasks ?? [];
  return (
    <div className="flex flex-col gap-2">
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="font-medium">{taskKey} shows these tasks together</legend>
        {others.map((k) => (
          <Check
            key={k}
            label={
              <>
                {k}
                <span className="sr-only"> in {taskKey}</span>
              </>
            }
            checked={members.includes(k)}
            onChange={(on) => onChange({ ...task, tasks: on ? [...members, k] : members.filter((m) => m !== k) })}
          />
        ))}
      </fieldset>
      <NextField taskKey={taskKey} task={task} onChange={onChange} others={others.filter((k) => !members.includes(k))} />
    </div>
  );
}
