"use client";
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/controls";
import { isTypingTarget } from "../shortcut-keys";

// The classifier's keyboard shortcuts, listed in a native modal dialog (the rest of the page is inert, so
// the focus stays inside; Escape closes it; the focus goes back to where it was). "?" opens it from
// anywhere on the page but a text field; the button beside the field guide does too.

const SHORTCUTS: [keys: string, what: string][] = [
  ["1 – 9", "Choose the first to ninth answer of the question (again, on a multiple-answer question, to take it back)"],
  ["Enter", "Done (or Next, when another task follows)"],
  ["+ and −", "Zoom in and out, on the focused image"],
  ["Arrow keys", "Move the focused image; on the drawing area, move the cursor (Enter marks)"],
  ["Tab", "Move between the answers, the image tools and the buttons"],
  ["?", "Show this list"],
  ["Escape", "Close this list"],
];

export function KeyboardHelpButton() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (isTypingTarget(e.target) || (e.target instanceof Element && e.target.closest("dialog"))) return;
      e.preventDefault();
      setOpen(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (!open) return;
    opener.current = document.activeElement;
    dialog.current?.showModal();
  }, [open]);

  return (
    <>
      <button type="button" className={`${buttonClass} bg-white`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Keyboard shortcuts
      </button>
      {open && (
        <dialog
          ref={dialog}
          aria-labelledby="shortcuts-title"
          onClose={() => {
            setOpen(false);
            const o = opener.current;
            if (o instanceof HTMLElement && o.isConnected) o.focus();
          }}
          className="w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-gray-200 p-0 shadow-xl backdrop:bg-black/40"
        >
          <div className="flex flex-col gap-3 p-5">
            <h2 id="shortcuts-title" className="text-lg font-semibold">
              Keyboard shortcuts
            </h2>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              {SHORTCUTS.map(([keys, what]) => (
                <div key={keys} className="contents">
                  <dt>
                    <kbd className="rounded border border-gray-300 bg-gray-50 px-1.5 py-0.5 font-mono text-xs">{keys}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
            <p className="text-sm text-gray-600">The shortcuts wait while you type in a text box.</p>
            <button
              type="button"
              // biome-ignore lint/a11y/noAutofocus: in a modal <dialog>, autofocus names what showModal() focuses first (the dialog pattern)
              autoFocus
              onClick={() => dialog.current?.close()}
              className="self-end rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
            >
              Close
            </button>
          </div>
        </dialog>
      )}
    </>
  );
}
