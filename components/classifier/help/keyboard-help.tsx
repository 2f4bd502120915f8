"use client";
import { useEffect, useState } from "react";
import { Dialog } from "../lazy-dialog";
import { buttonClass } from "@/components/ui/controls";
import { isTypingTarget } from "../shortcut-keys";

// The classifier's keyboard shortcuts, listed in the UI's dialog (modal: the rest of the page is inert, so
// the focus stays inside; ×, Escape and the backdrop close it; the focus goes back to where it was). "?" opens it from
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

  return (
    <>
      {/* A phone seldom has a keyboard: the button is left off there ("?" still opens the list). */}
      <button type="button" className={`${buttonClass} hidden bg-white sm:block`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Keyboard shortcuts
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Keyboard shortcuts">
        <div className="flex flex-col gap-3">
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
        </div>
      </Dialog>
    </>
  );
}
