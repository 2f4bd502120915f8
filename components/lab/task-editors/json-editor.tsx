"use client";
import { useState } from "react";
import { inputClass } from "@/components/ui/controls";
import type { EditorProps } from "@/components/tasks/editor-common";
import { Alert } from "@/components/ui/alert";

/** Any other task type, as its JSON definition (kept exactly as written). */
export function JsonTaskEditor({ taskName, task, onChange }: EditorProps) {
  const [text, setText] = useState(JSON.stringify(task, null, 2));
  const [error, setError] = useState<string | null>(null);
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{taskName} definition (JSON)</span>
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
        <Alert as="span" inline>
          {error}
        </Alert>
      )}
    </label>
  );
}
