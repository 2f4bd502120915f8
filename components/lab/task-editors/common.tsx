"use client";
import type { ReactNode } from "react";
import type { TaskDef } from "@/lib/lab/task-editing";

// Small pieces every task editor uses: labelled inputs in the lab's style, an answer list, where a task leads.

export const inputClass = "rounded border border-gray-300 px-2 py-1 text-sm";
export const buttonClass = "rounded border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100";

export interface EditorProps {
  taskKey: string;
  task: TaskDef;
  onChange(task: TaskDef): void;
  /** Keys of the other tasks, for `next` links and combos. */
  others: string[];
  /** Keys of the shortcut tasks, which a question may offer beside its answers. */
  shortcuts: string[];
}

export function TextInput({
  label,
  value,
  onChange,
  required,
  type = "text",
  className = "",
  placeholder,
}: {
  label: ReactNode;
  value: string;
  onChange(v: string): void;
  required?: boolean;
  type?: string;
  className?: string;
  placeholder?: string;
}) {
  return (
    <label className={`flex flex-col gap-1 text-sm ${className}`}>
      <span className="font-medium">{label}</span>
      <input
        className={inputClass}
        type={type}
        required={required}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

export function TextBox({
  label,
  value,
  onChange,
  rows = 2,
}: {
  label: ReactNode;
  value: string;
  onChange(v: string): void;
  rows?: number;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <textarea className={inputClass} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

export function Check({ label, checked, onChange }: { label: ReactNode; checked: boolean; onChange(v: boolean): void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
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
  others: string[];
}) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span>{label}</span>
      <select className={`${inputClass} self-start`} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">the end</option>
        {others.map((t) => (
          <option key={t}>{t}</option>
        ))}
      </select>
    </label>
  );
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
  others?: string[];
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
              label={`${name} answer ${k + 1} leads to`}
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
