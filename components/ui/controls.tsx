import type { ReactNode } from "react";
import { inputClass } from "./styles";

// The one set of form controls the lab and the classifier's panels share: the input and button styles, and
// labelled inputs, text boxes, checkboxes, selects and an "add" section built from them. Every control is a
// <label> around its text and its input, so the accessible name is the visible label. No "use client": the
// class strings are plain constants a server page may use too; the controls run wherever their caller does.

export { buttonClass, dangerButtonClass, inputClass, primaryButtonClass } from "./styles";

const join = (...classes: (string | undefined | false)[]) => classes.filter(Boolean).join(" ");

/** A labelled one-line input; `list` names a <datalist> of suggestions. */
export function TextInput({
  label,
  value,
  onChange,
  required,
  type = "text",
  className,
  placeholder,
  list,
}: {
  label: ReactNode;
  value: string;
  onChange(v: string): void;
  required?: boolean;
  type?: string;
  /** Classes of the label (its width, say). */
  className?: string;
  placeholder?: string;
  list?: string;
}) {
  return (
    <label className={join("flex flex-col gap-1 text-sm", className)}>
      <span className="font-medium">{label}</span>
      <input
        className={inputClass}
        type={type}
        required={required}
        value={value}
        placeholder={placeholder}
        list={list}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/** A labelled text area. */
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

/** A labelled checkbox. */
export function Check({ label, checked, onChange }: { label: ReactNode; checked: boolean; onChange(v: boolean): void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** An option of a Select: a value shown as itself, or a value with its own text. */
export type SelectOption = string | { value: string; label: string };

/**
 * A labelled select. `empty` puts a first option of value "" with that text ("the end", "none"); `plain`
 * shows the label in normal weight (a link's target beside the field it belongs to).
 */
export function Select({
  label,
  value,
  options,
  onChange,
  empty,
  plain = false,
  className,
}: {
  label: ReactNode;
  value: string;
  options: readonly SelectOption[];
  onChange(v: string): void;
  empty?: string;
  plain?: boolean;
  /** Classes of the select itself. */
  className?: string;
}) {
  return (
    // Never wider than its container: a long option (a task's words) shrinks the select rather than the page.
    <label className="flex min-w-0 max-w-full flex-col gap-1 text-sm">
      <span className={plain ? undefined : "font-medium"}>{label}</span>
      <select className={join(inputClass, "max-w-full", className)} value={value} onChange={(e) => onChange(e.target.value)}>
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => {
          const { value: v, label: l } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={v} value={v}>
              {l}
            </option>
          );
        })}
      </select>
    </label>
  );
}
