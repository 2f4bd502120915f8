"use client";
import { Check, TextInput, Select } from "@/components/ui/controls";
import { AnswerList, type EditorProps, HelpField, NextField } from "../editor-common";

/** A question with one (branching per answer) or several answers; its help text; whether it must be answered; a shortcut beside it. */
export function QuestionEditor({ taskName, task, onChange, others, shortcuts }: EditorProps) {
  return (
    <div className="flex flex-col gap-2">
      <TextInput
        label={`${taskName} question`}
        required
        value={String(task.question ?? "")}
        onChange={(v) => onChange({ ...task, question: v })}
        className="flex-1"
      />
      <HelpField taskName={taskName} task={task} onChange={onChange} />
      <Check label={`${taskName} must be answered`} checked={!!task.required} onChange={(v) => onChange({ ...task, required: v })} />
      <AnswerList
        name={taskName}
        answers={task.answers ?? []}
        onChange={(answers) => onChange({ ...task, answers })}
        others={others}
        branching={task.type === "single"}
      />
      {task.type === "multiple" && <NextField taskName={taskName} task={task} onChange={onChange} others={others} />}
      {shortcuts.length > 0 && (
        <Select
          label={`${taskName} shortcut offered beside the answers`}
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
