"use client";
import { useState } from "react";
import { Dialog } from "../lazy-dialog";
import type { FeedbackResult } from "@/lib/classifier/feedback";
import { currentTaskControl } from "../current-task";

/**
 * After Done on a gold-standard subject: whether each answer matched, with the rule's message. The UI's
 * dialog (modal: the rest of the page is inert; ×, Escape and Continue close it); the focus goes back to
 * where it was, or to the next subject's first answer (else its task heading) when the element that had it
 * left with the previous subject.
 */
export function FeedbackModal({ results, onClose }: { results: FeedbackResult[]; onClose(): void }) {
  const [open, setOpen] = useState(true);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      returnFocus={currentTaskControl}
      title={results.every((r) => r.success) ? "Well done" : "Feedback"}
      actions={
        <button
          type="button"
          data-autofocus
          onClick={() => setOpen(false)}
          className={
            "rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 " +
            "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 " +
            "focus-visible:outline-brand-600"
          }
        >
          Continue
        </button>
      }
    >
      <ul className="flex flex-col gap-2">
        {results.map((r) => (
          <li
            key={`${r.taskKey}-${r.ruleId}`}
            className={`rounded border p-3 text-sm ${r.success ? "border-green-300 bg-green-50" : "border-red-300 bg-red-50"}`}
          >
            <strong>{r.success ? "Your answer matched. " : "Your answer did not match. "}</strong>
            {r.message}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
