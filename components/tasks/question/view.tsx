"use client";
import { InlineMarkdown } from "@/components/ui/markdown";
import { TaskHelp } from "../task-help";
import type { TaskViewProps } from "../view-props";

/** A question: one answer (radio buttons) or several (checkboxes), and its help. */
export function QuestionTaskView({ id, task, value, onChange }: TaskViewProps) {
  const t = task as { question: string; answers: { label: string }[]; help?: string };
  const chosen = task.type === "single" ? [value as number | null] : ((value as number[]) ?? []);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 font-medium">
        <InlineMarkdown source={t.question ?? ""} />
      </legend>
      {t.answers.map((a, i) => (
        <label
          key={i}
          className={
            "flex cursor-pointer items-center gap-3 rounded border border-gray-300 px-3 py-2 " +
            "has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          }
        >
          <input
            type={task.type === "single" ? "radio" : "checkbox"}
            name={id}
            checked={chosen.includes(i)}
            onChange={(e) => {
              if (task.type === "single") onChange(i);
              else onChange(e.target.checked ? [...(value as number[]), i] : (value as number[]).filter((x) => x !== i));
            }}
          />
          {a.label ? <InlineMarkdown source={a.label} /> : <span>Answer {i + 1}</span>}
        </label>
      ))}
      <TaskHelp help={t.help} />
    </fieldset>
  );
}
