import type { InputHTMLAttributes, ReactNode } from "react";

/**
 * A labelled text input. `hint` (under the label) and `error` (under the input) are tied to the input by
 * aria-describedby, and an error marks it aria-invalid; `trailing` sits beside the input (a show/hide button).
 * Like every text control (components/ui/controls.tsx), `onChange` hears the new value.
 */
export function Field({
  label,
  id,
  hint,
  error,
  trailing,
  onChange,
  ...props
}: {
  label: string;
  id: string;
  hint?: ReactNode;
  error?: ReactNode;
  trailing?: ReactNode;
  onChange?(value: string): void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "onChange">) {
  const describedBy =
    [props["aria-describedby"], hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const input = (
    <input
      id={id}
      name={id}
      className={`${trailing ? "min-w-0 flex-1 " : ""}rounded border border-gray-300 px-3 py-2 aria-[invalid=true]:border-red-600`}
      {...props}
      onChange={onChange && ((e) => onChange(e.target.value))}
      aria-describedby={describedBy}
      aria-invalid={error ? true : props["aria-invalid"]}
    />
  );
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-gray-600">
          {hint}
        </p>
      )}
      {trailing ? (
        <div className="flex items-stretch gap-2">
          {input}
          {trailing}
        </div>
      ) : (
        input
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
