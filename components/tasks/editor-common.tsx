"use client";
import { Select, TextBox, TextInput, buttonClass } from "@/components/ui/controls";
import type { TaskDef } from "@/lib/tasks/types";

// What every task type's lab editor (components/tasks/<type>/editor.tsx) takes, and the pieces they share beside
// the lab's controls (components/ui/controls): an answer list, where a task leads.

/** A task as the lab offers it in a list: its key as the value, its name ("Task 2: Draw the hedgehog") as the label. */
export interface TaskChoice {
  value: string;
  label: string;
}

export interface EditorProps {
  /** How the editor's labels name the task: "Task 1" (its key stays out of sight). */
  taskName: string;
  task: TaskDef;
  onChange(task: TaskDef): void;
  /** The other tasks, for `next` links and combos. */
  others: TaskChoice[];
  /** The shortcut tasks, which a question may offer beside its answers. */
  shortcuts: TaskChoice[];
}

type FieldProps = Pick<EditorProps, "taskName" | "task" | "onChange">;

/** A task's instruction, as every task type's editor asks it (required unless `optional`). */
export function InstructionField({ taskName, task, onChange, optional }: FieldProps & { optional?: boolean }) {
  return (
    <TextInput
      label={`${taskName} instruction`}
      required={!optional}
      value={String(task.instruction ?? "")}
      onChange={(v) => onChange({ ...task, instruction: v })}
    />
  );
}

/** A task's help text (Markdown, shown to a volunteer who asks for it). */
export function HelpField({ taskName, task, onChange }: FieldProps) {
  return (
    <TextBox
      label={`${taskName} help (Markdown, shown on request)`}
      value={String(task.help ?? "")}
      onChange={(v) => onChange({ ...task, help: v })}
    />
  );
}

/** Where a task leads once it is answered: one of `others`, or the end. */
export function NextField({ taskName, task, onChange, others }: FieldProps & { others: TaskChoice[] }) {
  return (
    <NextSelect
      label={`${taskName} then goes to`}
      value={String(task.next ?? "")}
      onChange={(v) => onChange({ ...task, next: v })}
      others={others}
    />
  );
}

/** Where a task (or an answer) leads: another task, or the end. */
export function NextSelect({
  label,
  value,
  onChange,
  others,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  others: TaskChoice[];
}) {
  return <Select label={label} plain value={value} onChange={onChange} options={others} empty="the end" className="self-start" />;
}

/** A list of labelled answers (question answers, shortcut options, detail answers), each optionally leading on. */
export function AnswerList({
  name,
  answers,
  onChange,
  others,
  branching,
}: {
  name: string;
  answers: TaskDef[];
  onChange(a: TaskDef[]): void;
  others?: TaskChoice[];
  branching?: boolean;
}) {
  const set = (i: number, a: TaskDef) => onChange(answers.map((x, j) => (j === i ? a : x)));
  return (
    <div className="flex flex-col gap-2 pl-4">
      {answers.map((a, k) => (
        <div key={k} className="flex flex-wrap items-end gap-2">
          <TextInput
            label={`${name} answer ${k + 1}`}
            required
            value={String(a.label ?? "")}
            onChange={(v) => set(k, { ...a, label: v })}
          />
          {branching && others && (
            <NextSelect
              label={`${name} answer ${k + 1}${a.label ? ` (${a.label})` : ""} leads to`}
              value={String(a.next ?? "")}
              onChange={(v) => set(k, { ...a, next: v })}
              others={others}
            />
          )}
          {answers.length > 1 && (
            <button type="button" className={buttonClass} onClick={() => onChange(answers.filter((_, j) => j !== k))}>
              Remove
              <span className="sr-only">
                {" "}
                {name} answer {k + 1}
              </span>
            </button>
          )}
        </div>
      ))}
      <button type="button" className={`${buttonClass} self-start`} onClick={() => onChange([...answers, { label: "" }])}>
        Add an answer<span className="sr-only"> to {name}</span>
      </button>
    </div>
  );
}
