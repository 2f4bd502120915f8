"use client";
import { type ReactNode, useEffect, useId, useRef } from "react";

// The UI's one dialog: a native <dialog>, labelled by its heading, with a × that closes it.
// - Modal (the default): showModal(), so the page behind is inert and the browser keeps the focus inside;
//   centred at every width (the CSS reset takes the browser's own centring away, so it is given back here)
//   unless `className` places it (the field guide's sheet on a small screen); scrolling inside when taller
//   than the screen; Escape, × and a click on the backdrop close it.
// - Non-modal (`modal={false}`): the page stays usable (the field guide beside the subject); `className`
//   places it; Escape inside it and × close it.
// Either way the focus moves into it on open (to the element marked `data-autofocus`, else the ×) and goes
// back on close to where it came from, or to `returnFocus()` when that is gone or was nothing (a dialog that
// opened by itself).

const close =
  "flex h-9 w-9 shrink-0 items-center justify-center rounded text-2xl leading-none text-gray-600 hover:bg-gray-100 " +
  "hover:text-gray-900";

/** The classes of a modal dialog: centred, as wide as 32rem or the screen less a margin, never taller than the screen. */
const modalClass =
  "m-auto max-h-[calc(100dvh-1.5rem)] w-[min(32rem,calc(100vw-1.5rem))] max-w-none rounded-lg border border-gray-200 bg-white " +
  "p-0 text-gray-900 shadow-xl backdrop:bg-black/40 open:flex open:flex-col";

export function Dialog({
  open,
  onClose,
  title,
  children,
  actions,
  modal = true,
  returnFocus,
  className,
}: {
  /** Whether it is shown; the dialog reports every way it closes through onClose (the caller sets this false). */
  open: boolean;
  onClose(): void;
  /** The heading that names it. */
  title: ReactNode;
  children: ReactNode;
  /** Buttons below the content, kept in view while the content scrolls. */
  actions?: ReactNode;
  modal?: boolean;
  /** Where the focus goes on close when the element it came from is gone, or was the page itself. */
  returnFocus?: () => HTMLElement | null;
  /** Its placement and look (a non-modal one needs it; without it, a modal one is centred). */
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  const fromBackdrop = useRef(false);
  const titleId = useId();
  const report = useRef({ onClose, returnFocus });
  report.current = { onClose, returnFocus };

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement;
      if (modal) d.showModal();
      else d.show();
      (d.querySelector<HTMLElement>("[data-autofocus]:not(:disabled)") ?? closeButton.current)?.focus();
    } else if (!open && d.open) d.close();
  }, [open, modal]);

  // Closed by any means (Escape, ×, the backdrop, the caller): the focus back, then the caller told.
  const onClosed = () => {
    const o = opener.current;
    opener.current = null;
    const back = o instanceof HTMLElement && o.isConnected && o !== document.body ? o : report.current.returnFocus?.();
    back?.focus();
    report.current.onClose();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      className={className === undefined ? modalClass : `open:flex open:flex-col ${className}`}
      onClose={onClosed}
      onKeyDown={(e) => {
        if (!modal && e.key === "Escape" && !e.defaultPrevented) {
          e.preventDefault();
          dialog.current?.close();
        }
      }}
      // A press and release both on the backdrop (outside the dialog's box; the backdrop's events target the
      // dialog) close a modal one; a text selection dragged out of it does not.
      onPointerDown={(e) => {
        fromBackdrop.current = modal && e.target === e.currentTarget && outside(e.currentTarget, e);
      }}
      onClick={(e) => {
        if (fromBackdrop.current && e.target === e.currentTarget && outside(e.currentTarget, e)) e.currentTarget.close();
        fromBackdrop.current = false;
      }}
    >
      <div className="flex shrink-0 items-start justify-between gap-3 border-b border-gray-200 py-2 pr-2 pl-5">
        <h2 id={titleId} className="py-1.5 text-lg font-semibold">
          {title}
        </h2>
        <button ref={closeButton} type="button" className={close} aria-label="Close" title="Close" onClick={() => dialog.current?.close()}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-5">{children}</div>
      {actions && <div className="flex shrink-0 flex-wrap justify-end gap-2 border-t border-gray-200 px-5 py-3">{actions}</div>}
    </dialog>
  );
}

const outside = (d: HTMLElement, e: { clientX: number; clientY: number }) => {
  const r = d.getBoundingClientRect();
  return e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
};
