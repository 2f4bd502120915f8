"use client";
import { usePathname } from "next/navigation";
import { Link } from "@/components/ui/link";
import { isCurrent, menuLinkClass, useDisclosure } from "./disclosure";

// The header's account menu, in a chunk of its own (loaded as the header renders, not in any page's first
// load): only signed-in users get it.

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

function SignOut({ account, className }: { account: HeaderAccount; className: string }) {
  return (
    <form action={account.signOut}>
      <button type="submit" className={className}>
        Sign out
      </button>
    </form>
  );
}

/** The phone's Menu panel's account part: the same links and Sign out, under who is signed in. */
export function PhoneAccountItems({ account, note, close }: { account: HeaderAccount; note: string; close(): void }) {
  const pathname = usePathname();
  return (
    <>
      <li className="mt-1 border-t border-gray-100 pt-2 pb-1 text-sm text-gray-600 sm:hidden">{note}</li>
      {accountLinks(account).map((l) => (
        <li key={l.href} className="sm:hidden">
          <Link href={l.href} aria-current={isCurrent(l.href, pathname) ? "page" : undefined} onClick={close} className={menuLinkClass}>
            {l.label}
          </Link>
        </li>
      ))}
      <li className="py-2 sm:hidden">
        <SignOut account={account} className="rounded border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100" />
      </li>
    </>
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
              aria-current={isCurrent(l.href, pathname) ? "page" : undefined}
              onClick={() => setOpen(false)}
              className={`${menuLinkClass} px-3 hover:bg-gray-50 focus-visible:bg-gray-50`}
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
