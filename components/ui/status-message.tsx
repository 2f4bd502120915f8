import { Alert } from "./alert";

/** The outcome of a form's last action: an alert for an error, a status otherwise (both announced). */
export interface Outcome {
  /** A warning: done, with something to read (amber). */
  kind: "ok" | "warning" | "error";
  text: string;
}

const STATUS_LOOK = { ok: "border-green-300 bg-green-50", warning: "border-amber-300 bg-amber-50" };

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
