"use client";
import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/**
 * The header's page links. From the `sm` breakpoint up they sit in the header's line; on a phone they are
 * behind a Menu button (aria-expanded) that opens them as a panel under the header: Escape or a click
 * elsewhere closes it, focus going back to the button after Escape, and following a link closes it too.
 * `note` is a line shown only in the phone's panel (who is signed in, which the header hides there).
 */
export function SiteNav({ links, note }: { links: { href: string; label: string }[]; note?: string }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);

  // A new page closes the panel.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname is the trigger, not read
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => !wrapper.current?.contains(e.target as Node);
    const away = (e: Event) => {
      if (outside(e)) setOpen(false);
    };
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    // A click or the focus going elsewhere closes the panel; so does Escape, focus back on the button.
    document.addEventListener("pointerdown", away);
    document.addEventListener("focusin", away);
    document.addEventListener("keydown", onEscape);
    return () => {
      document.removeEventListener("pointerdown", away);
      document.removeEventListener("focusin", away);
      document.removeEventListener("keydown", onEscape);
    };
  }, [open]);

  return (
    <div ref={wrapper} className="flex items-center">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="site-nav-links"
        className="flex items-center gap-1.5 rounded border border-gray-300 px-2.5 py-1 text-sm hover:bg-gray-100 sm:hidden"
        onClick={() => setOpen((o) => !o)}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.75">
          {open ? <path d="M3.5 3.5l9 9M12.5 3.5l-9 9" /> : <path d="M2 4h12M2 8h12M2 12h12" />}
        </svg>
        Menu
      </button>
      <ul
        id="site-nav-links"
        className={
          `${open ? "flex" : "hidden"} absolute inset-x-0 top-full z-30 flex-col border-b border-gray-200 bg-white px-4 py-2 shadow-md ` +
          "sm:static sm:flex sm:flex-row sm:items-center sm:gap-4 sm:border-0 sm:p-0 sm:shadow-none"
        }
      >
        {links.map((l) => {
          const current = l.href === "/" ? pathname === "/" : pathname.startsWith(l.href);
          return (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={current ? "page" : undefined}
                onClick={() => setOpen(false)}
                className={
                  "block py-2 text-sm text-gray-700 hover:text-brand-700 aria-[current=page]:font-semibold " +
                  "aria-[current=page]:text-brand-700 sm:py-0"
                }
              >
                {l.label}
              </Link>
            </li>
          );
        })}
        {note && <li className="border-t border-gray-100 py-2 text-sm text-gray-600 sm:hidden">{note}</li>}
      </ul>
    </div>
  );
}
