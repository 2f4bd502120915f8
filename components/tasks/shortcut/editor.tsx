"use client";
import { AnswerList, type EditorProps } from "../editor-common";

/** A shortcut: options such as "Nothing here" offered beside a question (the question names it); choosing one ends the classification. */
export function ShortcutEditor({ taskName, task, onChange }: EditorProps) {
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-gray-600">Offer it beside a question: choose it as that question&apos;s shortcut.</p>
      <AnswerList name={taskName} answers={task.answers ?? []} onChange={(answers) => onChange({ ...task, answers })} />
    </div>
  );
}
