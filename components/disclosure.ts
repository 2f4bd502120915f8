"use client";
import { usePathname } from "next/navigation";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";

/** The panel's links and buttons that show. */
const panelItems = (panel: HTMLElement | null) =>
  [...(panel?.querySelectorAll<HTMLElement>("li a, li button") ?? [])].filter((el) => el.offsetParent);

/**
 * A button that opens a panel (aria-expanded): Escape or a click or focus elsewhere closes it, focus going
 * back to the button after Escape; a new page closes it too. In the panel the arrow keys move between its
 * links and buttons, and ArrowDown on the closed button opens it at the first.
 */
export function useDisclosure() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname is the trigger, not read
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current?.focus();
        return;
      }
      const step = e.key === "ArrowDown" ? 1 : e.key === "ArrowUp" ? -1 : 0;
      if (!step || !wrapper.current?.contains(document.activeElement)) return;
      e.preventDefault();
      const all = panelItems(wrapper.current);
      all[(all.indexOf(document.activeElement as HTMLElement) + step + all.length) % all.length]?.focus();
    };
    document.addEventListener("pointerdown", away);
    document.addEventListener("focusin", away);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", away);
      document.removeEventListener("focusin", away);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  /** ArrowDown on the closed button opens the panel at its first item. */
  const onKeyDown = (e: KeyboardEvent) => {
    if (open || e.key !== "ArrowDown") return;
    e.preventDefault();
    setOpen(true);
    requestAnimationFrame(() => panelItems(wrapper.current)[0]?.focus());
  };
  return { open, setOpen, button, wrapper, onKeyDown, pathname };
}

/** A link of the header's menus (the current page's in bold). */
export const menuLinkClass =
  "block py-2 text-sm text-gray-700 hover:text-brand-700 aria-[current=page]:font-semibold aria-[current=page]:text-brand-700";

/** Is `href` the page at `pathname`, or a page under it? */
export const isCurrent = (href: string, pathname: string) =>
  href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
