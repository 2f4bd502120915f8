"use client";
import { useState } from "react";
import type { TaskDef } from "@/lib/lab/task-editing";
import { Check, TextBox, TextInput, buttonClass, inputClass } from "@/components/ui/controls";
import { AnswerList, NextSelect, type EditorProps } from "./common";

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

/** A slider: its range, step and starting value (strings, as the established clients store them). */
export function SliderEditor({ taskKey, task, onChange, others }: EditorProps) {
  const num = (field: string, label: string) => (
    <TextInput
      label={`${taskKey} ${label}`}
      type="number"
      required
      value={String(task[field] ?? "")}
      onChange={(v) => onChange({ ...task, [field]: v })}
      className="w-32"
    />
  );
  return (
    <div className="flex flex-col gap-2">
      <TextInput
        label={`${taskKey} instruction`}
        required
        value={String(task.instruction ?? "")}
        onChange={(v) => onChange({ ...task, instruction: v })}
      />
      <div className="flex flex-wrap gap-2">
        {num("min", "minimum")}
        {num("max", "maximum")}
        {num("step", "step")}
        {num("defaultValue", "starting value")}
      </div>
      <NextSelect
        label={`${taskKey} then goes to`}
        value={String(task.next ?? "")}
        onChange={(v) => onChange({ ...task, next: v })}
        others={others}
      />
    </div>
  );
}

/** A shortcut: options such as "Nothing here" offered beside a question (the question names it); choosing one ends the classification. */
export function ShortcutEditor({ taskKey, task, onChange }: EditorProps) {
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-gray-600">Offer it beside a question: choose it as that question&apos;s shortcut.</p>
      <AnswerList name={taskKey} answers={task.answers ?? []} onChange={(answers) => onChange({ ...task, answers })} />
    </div>
  );
}

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
      <NextSelect
        label={`${taskKey} then goes to`}
        value={String(task.next ?? "")}
        onChange={(v) => onChange({ ...task, next: v })}
        others={others.filter((k) => !members.includes(k))}
      />
    </div>
  );
}

/** A highlighter for text subjects: labels with colours. */
export function HighlighterEditor({ taskKey, task, onChange, others }: EditorProps) {
  const labels: TaskDef[] = task.highlighterLabels ?? [];
  const set = (i: number, l: TaskDef) => onChange({ ...task, highlighterLabels: labels.map((x, j) => (j === i ? l : x)) });
  return (
    <div className="flex flex-col gap-2">
      <TextInput
        label={`${taskKey} instruction`}
        required
        value={String(task.instruction ?? "")}
        onChange={(v) => onChange({ ...task, instruction: v })}
      />
      {labels.map((l, i) => (
        <div key={i} className="flex flex-wrap items-end gap-2 pl-4">
          <TextInput
            label={`${taskKey} label ${i + 1}`}
            required
            value={String(l.label ?? "")}
            onChange={(v) => set(i, { ...l, label: v })}
          />
          <TextInput
            label={`${taskKey} label ${i + 1} colour`}
            type="color"
            value={String(l.color ?? "#ff0000")}
            onChange={(v) => set(i, { ...l, color: v })}
            className="w-24"
          />
          {labels.length > 1 && (
            <button
              type="button"
              className={buttonClass}
              onClick={() => onChange({ ...task, highlighterLabels: labels.filter((_, j) => j !== i) })}
            >
              Remove
              <span className="sr-only">
                {" "}
                {taskKey} label {i + 1}
              </span>
            </button>
          )}
        </div>
      ))}
      <button
        type="button"
        className={`${buttonClass} self-start`}
        onClick={() => onChange({ ...task, highlighterLabels: [...labels, { label: "", color: "#00a000" }] })}
      >
        Add a label<span className="sr-only"> to {taskKey}</span>
      </button>
      <NextSelect
        label={`${taskKey} then goes to`}
        value={String(task.next ?? "")}
        onChange={(v) => onChange({ ...task, next: v })}
        others={others}
      />
    </div>
  );
}

/** Any other task type, as its JSON definition (kept exactly as written). */
export function JsonTaskEditor({ taskKey, task, onChange }: EditorProps) {
  const [text, setText] = useState(JSON.stringify(task, null, 2));
  const [error, setError] = useState<string | null>(null);
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{taskKey} definition (JSON)</span>
      <textarea
        className={`${inputClass} font-mono`}
        rows={8}
        value={text}
        aria-invalid={!!error}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const parsed = JSON.parse(e.target.value);
            if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("a task is a JSON object");
            setError(null);
            onChange(parsed);
          } catch (err) {
            setError((err as Error).message);
          }
        }}
      />
      {error && (
        <span role="alert" className="text-red-700">
          {error}
        </span>
      )}
    </label>
  );
}
