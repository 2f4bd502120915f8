import type { InputHTMLAttributes } from "react";

/** A labelled text input. */
export function Field({ label, id, ...props }: { label: string; id: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input id={id} name={id} className="rounded border border-gray-300 px-3 py-2" {...props} />
    </div>
  );
}
