"use client";
import { InlineMarkdown } from "@/components/ui/markdown";
import type { TaskViewProps } from "../view-props";

/**
 * A shortcut task: the options PFE shows under a question (its `unlinkedTask`), such as "Nothing here".
 * Choosing one ends the subject's tasks; the annotation is `{task, value: [indexes]}`.
 */
export function ShortcutTaskView({ id, task, value: raw, onChange }: TaskViewProps) {
  const value = (raw as number[] | null) ?? [];
  const answers = ((task as { answers?: { label: string }[] }).answers ?? []) as { label: string }[];
  return (
    <fieldset className="flex flex-wrap gap-2 border-t border-gray-200 pt-3">
      <legend className="sr-only">Shortcuts</legend>
      {answers.map((a, i) => (
        <label
          key={i}
          className={
            "flex cursor-pointer items-center gap-2 rounded-full border border-gray-300 px-3 py-1 text-sm " +
            "has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline " +
            "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          }
        >
          <input
            type="checkbox"
            name={id}
            checked={value.includes(i)}
            onChange={(e) => onChange(e.target.checked ? [...value, i] : value.filter((x) => x !== i))}
          />
          <InlineMarkdown source={a.label ?? ""} />
        </label>
      ))}
    </fieldset>
  );
}
