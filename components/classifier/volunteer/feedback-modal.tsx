"use client";
import { useEffect, useRef } from "react";
import type { FeedbackResult } from "@/lib/classifier/feedback";

/**
 * After Done on a gold-standard subject: whether each answer matched, with the rule's message. A native
 * modal dialog (the rest of the page is inert, Escape closes); focus goes back to where it was, or to the
 * next subject's first answer (else its task heading) when the element that had it left with the previous subject.
 */
export function FeedbackModal({ results, onClose }: { results: FeedbackResult[]; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    dialog.current?.showModal();
  }, []);
  const close = () => {
    dialog.current?.close();
  };
  return (
    <dialog
      ref={dialog}
      aria-labelledby="feedback-title"
      onClose={() => {
        const o = opener.current;
        const back =
          o instanceof HTMLElement && o.isConnected && o !== document.body
            ? o
            : (document.querySelector<HTMLElement>("#task-form input:not([disabled])") ?? document.getElementById("task-heading"));
        back?.focus();
        onClose();
      }}
      className="w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-gray-200 p-0 shadow-xl backdrop:bg-black/40"
    >
      <div className="flex flex-col gap-3 p-5">
        <h2 id="feedback-title" className="text-lg font-semibold">
          {results.every((r) => r.success) ? "Well done" : "Feedback"}
        </h2>
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
        <button
          type="button"
          // biome-ignore lint/a11y/noAutofocus: in a modal <dialog>, autofocus names what showModal() focuses first (the dialog pattern)
          autoFocus
          onClick={close}
          className={
            "self-end rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 " +
            "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 " +
            "focus-visible:outline-brand-600"
          }
        >
          Continue
        </button>
      </div>
    </dialog>
  );
}
