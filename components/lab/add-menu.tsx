"use client";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/controls";

/**
 * A canvas's one "+" menu: a button that opens a list of what can be added (a task of each type; an
 * extractor, reducer, rule or effect). Keyboard: Enter or Space opens it and focuses the first item, the
 * arrow keys move between items, Escape closes it and returns to the button; choosing an item, or the focus
 * leaving the menu, closes it.
 */
export function AddMenu({ label, items }: { label: string; items: { id: string; label: string; disabled?: boolean; onSelect(): void }[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const itemButtons = () => [...(list.current?.querySelectorAll<HTMLButtonElement>("button:not(:disabled)") ?? [])];
  useEffect(() => {
    if (open) list.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: blur bubbling from the menu's own buttons closes it; nothing here takes input itself
    <div
      className="relative"
      onBlur={(e) => {
        // Closed when the focus leaves it (a click elsewhere, Tab past the last item).
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        className={`${buttonClass} bg-white font-semibold shadow`}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">+ </span>
        {label}
      </button>
      {open && (
        <ul
          id={id}
          ref={list}
          aria-label={label}
          className="absolute right-0 z-20 mt-1 flex min-w-56 flex-col rounded border border-gray-300 bg-white py-1 shadow-lg"
          onKeyDown={(e) => {
            const all = itemButtons();
            const at = all.indexOf(document.activeElement as HTMLButtonElement);
            if (e.key === "Escape") {
              e.preventDefault();
              close();
            } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              all[(at + (e.key === "ArrowDown" ? 1 : all.length - 1)) % all.length]?.focus();
            }
          }}
        >
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                disabled={item.disabled}
                className="w-full px-3 py-1.5 text-left text-sm hover:bg-brand-50 focus-visible:bg-brand-50 disabled:text-gray-500"
                onClick={() => {
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
