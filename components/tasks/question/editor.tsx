"use client";
import { Check, TextBox, TextInput, Select } from "@/components/ui/controls";
import { AnswerList, NextSelect, type EditorProps } from "../editor-common";

/** A question with one (branching per answer) or several answers; its help text; whether it must be answered; a shortcut beside it. */
export function QuestionEditor({ taskKey, task, onChange, others, shortcuts }: EditorProps) {
  return (
    <div className="flex flex-col gap-2">
      <TextInput
        label={`${taskKey} question`}
        required
        value={String(task.question ?? "")}
        onChange={(v) => onChange({ ...task, question: v })}
        className="flex-1"
      />
      <TextBox
        label={`${taskKey} help (Markdown, shown on request)`}
        value={String(task.help ?? "")}
        onChange={(v) => onChange({ ...task, help: v })}
      />
      <Check label={`${taskKey} must be answered`} checked={!!task.required} onChange={(v) => onChange({ ...task, required: v })} />
      <AnswerList
        name={taskKey}
        answers={task.answers ?? []}
        onChange={(answers) => onChange({ ...task, answers })}
        others={others}
        branching={task.type === "single"}
      />
      {task.type === "multiple" && (
        <NextSelect
          label={`${taskKey} then goes to`}
          value={String(task.next ?? "")}
          onChange={(v) => onChange({ ...task, next: v })}
          others={others}
        />
      )}
      {shortcuts.length > 0 && (
        <Select
          label={`${taskKey} shortcut offered beside the answers`}
          plain
          value={String(task.unlinkedTask ?? "")}
          onChange={(v) => onChange({ ...task, unlinkedTask: v })}
          options={shortcuts}
          empty="none"
          className="self-start"
        />
      )}
    </div>
  );
}
