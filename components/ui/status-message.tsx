import type { ReactNode } from "react";

/** The outcome of a form's last action: an alert for an error, a status otherwise (both announced). */
export interface Outcome {
  /** A warning: done, with something to read (amber). */
  kind: "ok" | "warning" | "error";
  text: string;
}

const STATUS_LOOK = { ok: "border-green-300 bg-green-50", warning: "border-amber-300 bg-amber-50" };

/**
 * The one way the UI shows an error: announced at once (role="alert"), in a red box; `inline` as red text in
 * a row of controls (a toggle's failure beside it). `as` is its element (a div around a list or a button);
 * `className` adds layout.
 */
export function Alert({
  children,
  as: Tag = "p",
  inline = false,
  className,
  id,
}: {
  children: ReactNode;
  as?: "p" | "div" | "span";
  inline?: boolean;
  className?: string;
  /** For a field's error, which names it with aria-describedby. */
  id?: string;
}) {
  const look = inline ? "text-sm text-red-700" : "rounded border border-red-300 bg-red-50 p-2 text-sm";
  return (
    <Tag id={id} role="alert" className={className ? `${look} ${className}` : look}>
      {children}
    </Tag>
  );
}

/** With `busy`, a "Working…" status comes first while the action runs. */
export function StatusMessage({ outcome, busy = false }: { outcome: Outcome | null; busy?: boolean }) {
  return (
    <>
      {busy && (
        <p role="status" className="text-sm">
          Working…
        </p>
      )}
      {outcome &&
        (outcome.kind === "error" ? (
          <Alert>{outcome.text}</Alert>
        ) : (
          <p role="status" className={`rounded border p-2 text-sm ${STATUS_LOOK[outcome.kind]}`}>
            {outcome.text}
          </p>
        ))}
    </>
  );
}
