/** The outcome of a form's last action: an alert for an error, a status otherwise (both announced). */
export interface Outcome {
  kind: "ok" | "error";
  text: string;
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
      {outcome && (
        <p
          role={outcome.kind === "error" ? "alert" : "status"}
          className={`rounded border p-2 text-sm ${outcome.kind === "error" ? "border-red-300 bg-red-50" : "border-green-300 bg-green-50"}`}
        >
          {outcome.text}
        </p>
      )}
    </>
  );
}
