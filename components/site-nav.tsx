"use client";
import { Link } from "@/components/ui/link";
import { lazyPart } from "@/components/classifier/lazy-part";
import type { HeaderAccount } from "./account-menu";
import { isCurrent, menuLinkClass, useDisclosure } from "./disclosure";

const AccountMenuPart = lazyPart(async () => (await import("./account-menu")).AccountMenu);
const PhoneAccountItems = lazyPart(async () => (await import("./account-menu")).PhoneAccountItems);

/** From the `sm` breakpoint up: a button with the user's name opening their own pages and Sign out (a chunk of its own). */
export function AccountMenu({ account }: { account: HeaderAccount }) {
  return <AccountMenuPart account={account} />;
}

/**
 * The header's page links. From the `sm` breakpoint up they sit in the header's line; on a phone they are
 * behind a Menu button that opens them as a panel under the header, following a link closes it. On a
 * phone the panel also holds the account's links and Sign out (`account`), under `note` (who is signed
 * in), so the phone's header has one menu.
 */
export function SiteNav({ links, note, account }: { links: { href: string; label: string }[]; note?: string; account?: HeaderAccount }) {
  const { open, setOpen, button, wrapper, onKeyDown, pathname } = useDisclosure();
  const item = (l: { href: string; label: string }) => {
    const current = isCurrent(l.href, pathname);
    return (
      <li key={l.href}>
        <Link
          href={l.href}
          aria-current={current ? "page" : undefined}
          onClick={() => setOpen(false)}
          className={`${menuLinkClass} sm:py-0`}
        >
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
        {links.map(item)}
        {account && note && <PhoneAccountItems account={account} note={note} close={() => setOpen(false)} />}
      </ul>
    </div>
  );
}
