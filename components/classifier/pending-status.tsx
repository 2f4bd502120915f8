"use client";
import { usePending } from "./pending-classifications";
import { Alert } from "@/components/ui/alert";

/** "N pending" with a retry button, and each refused classification as a dismissible error. */
export function PendingStatus() {
  const { items, retry, dismiss } = usePending();
  const waiting = items.filter((i) => !i.refused);
  const refused = items.filter((i) => i.refused);
  return (
    <>
      {waiting.length > 0 && (
        <div
          role="status"
          aria-live="polite"
          data-testid="pending"
          className="flex flex-wrap items-center gap-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm"
        >
          <span>
            {waiting.length} pending: {waiting.length === 1 ? "this classification is" : "these classifications are"} kept in this browser
            and sent when the connection is back.
          </span>
          <button
            type="button"
            onClick={retry}
            className={
              "rounded border border-amber-400 bg-white px-3 py-1 hover:bg-amber-100 focus-visible:outline " +
              "focus-visible:outline-2 focus-visible:outline-brand-600"
            }
          >
            Retry now
          </button>
        </div>
      )}
      {refused.map((i) => (
        <Alert as="div" key={i.id} className="flex flex-wrap items-center gap-3">
          <span>A classification was refused by the server: {i.refused}</span>
          <button
            type="button"
            onClick={() => dismiss(i.id)}
            className={
              "rounded border border-red-400 bg-white px-3 py-1 hover:bg-red-100 focus-visible:outline " +
              "focus-visible:outline-2 focus-visible:outline-brand-600"
            }
          >
            Dismiss
          </button>
        </Alert>
      ))}
    </>
  );
}
