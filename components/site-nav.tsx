"use client";
import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";

/** The signed-in user as the header's account menu needs them; `signOut` is the layout's server action. */
export interface HeaderAccount {
  name: string;
  login: string;
  admin: boolean;
  signOut: () => Promise<void>;
}

/** The volunteer's own pages, as the account menu lists them (the phone's Menu panel lists the same). */
function accountLinks(a: HeaderAccount) {
  return [
    { href: `/users/${encodeURIComponent(a.login)}`, label: "Profile" },
    { href: "/favourites", label: "Favourites" },
    { href: "/collections", label: "Collections" },
    { href: "/recents", label: "Recents" },
    { href: "/settings", label: "Settings" },
    ...(a.admin ? [{ href: "/admin", label: "Admin" }] : []),
  ];
}

/** The panel's links and buttons that show. */
const panelItems = (panel: HTMLElement | null) =>
  [...(panel?.querySelectorAll<HTMLElement>("li a, li button") ?? [])].filter((el) => el.offsetParent);

/**
 * A button that opens a panel (aria-expanded): Escape or a click or focus elsewhere closes it, focus going
 * back to the button after Escape; a new page closes it too. In the panel the arrow keys move between its
 * links and buttons, and ArrowDown on the closed button opens it at the first.
 */
function useDisclosure() {
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

const linkClass =
  "block py-2 text-sm text-gray-700 hover:text-brand-700 aria-[current=page]:font-semibold aria-[current=page]:text-brand-700";

function SignOut({ account, className }: { account: HeaderAccount; className: string }) {
  return (
    <form action={account.signOut}>
      <button type="submit" className={className}>
        Sign out
      </button>
    </form>
  );
}

/**
 * The header's page links. From the `sm` breakpoint up they sit in the header's line; on a phone they are
 * behind a Menu button that opens them as a panel under the header, following a link closes it. On a
 * phone the panel also holds the account's links and Sign out (`account`), under `note` (who is signed
 * in), so the phone's header has one menu.
 */
export function SiteNav({ links, note, account }: { links: { href: string; label: string }[]; note?: string; account?: HeaderAccount }) {
  const { open, setOpen, button, wrapper, onKeyDown, pathname } = useDisclosure();
  const item = (l: { href: string; label: string }, phoneOnly: boolean) => {
    const current = l.href === "/" ? pathname === "/" : pathname === l.href || pathname.startsWith(`${l.href}/`);
    return (
      <li key={l.href} className={phoneOnly ? "sm:hidden" : undefined}>
        <Link href={l.href} aria-current={current ? "page" : undefined} onClick={() => setOpen(false)} className={`${linkClass} sm:py-0`}>
          {l.label}
        </Link>
      </li>
    );
  };
  return (
    <div ref={wrapper} className="flex items-center">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="site-nav-links"
        onKeyDown={onKeyDown}
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
        {links.map((l) => item(l, false))}
        {note && <li className="mt-1 border-t border-gray-100 pt-2 pb-1 text-sm text-gray-600 sm:hidden">{note}</li>}
        {account && accountLinks(account).map((l) => item(l, true))}
        {account && (
          <li className="py-2 sm:hidden">
            <SignOut account={account} className="rounded border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100" />
          </li>
        )}
      </ul>
    </div>
  );
}

/** From the `sm` breakpoint up: a button with the user's name opening their own pages and Sign out. */
export function AccountMenu({ account }: { account: HeaderAccount }) {
  const { open, setOpen, button, wrapper, onKeyDown, pathname } = useDisclosure();
  return (
    <div ref={wrapper} className="relative hidden sm:block">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="account-menu"
        onKeyDown={onKeyDown}
        data-testid="signed-in-as"
        className="flex max-w-64 items-center gap-1.5 rounded border border-gray-300 px-3 py-1 hover:bg-gray-100"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="sr-only">Signed in as </span>
        <span className="truncate">{account.name}</span>
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3 w-3 shrink-0" fill="none" stroke="currentColor" strokeWidth="2">
          <path d={open ? "M4 10l4-4 4 4" : "M4 6l4 4 4-4"} />
        </svg>
      </button>
      <ul
        id="account-menu"
        aria-label="Your account"
        className={`${open ? "flex" : "hidden"} absolute right-0 top-full z-30 mt-1 w-48 flex-col rounded border border-gray-200 bg-white py-1 shadow-md`}
      >
        {accountLinks(account).map((l) => (
          <li key={l.href}>
            <Link
              href={l.href}
              aria-current={pathname === l.href || pathname.startsWith(`${l.href}/`) ? "page" : undefined}
              onClick={() => setOpen(false)}
              className={`${linkClass} px-3 hover:bg-gray-50 focus-visible:bg-gray-50`}
            >
              {l.label}
            </Link>
          </li>
        ))}
        <li className="mt-1 border-t border-gray-100 px-3 pt-2 pb-1">
          <SignOut account={account} className="w-full rounded border border-gray-300 px-3 py-1 text-left text-sm hover:bg-gray-100" />
        </li>
      </ul>
    </div>
  );
}
