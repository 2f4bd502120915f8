"use client";
import { InlineMarkdown } from "@/components/ui/markdown";
import { TaskHelp } from "../task-help";
import type { TaskViewProps } from "../view-props";

/** A free-text task: its instruction as the label of a text box. */
export function TextTaskView({ id, task, value, onChange }: TaskViewProps) {
  const t = task as { instruction?: string; help?: string; required?: boolean };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {t.instruction ? <InlineMarkdown source={t.instruction} /> : "Your answer"}
        {t.required ? " (required)" : ""}
      </label>
      <textarea
        id={id}
        rows={3}
        value={(value as string) ?? ""}
        onChange={(e) => onChange(e.target.value)}
        className="rounded border border-gray-300 px-3 py-2"
      />
      <TaskHelp help={t.help} />
    </div>
  );
}
