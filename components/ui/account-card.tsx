import Link from "next/link";
import type { ReactNode } from "react";

// The one layout of the account pages: a centred card with the page's heading, and under it the links to
// the other account pages (sign in, create an account, forgot password) but the one showing.

type AccountPage = "sign-in" | "sign-up" | "forgot-password" | "reset-password";

const LINKS: [page: AccountPage, lead: string, text: string][] = [
  ["sign-in", "Already have an account?", "Sign in"],
  ["sign-up", "New here?", "Create an account"],
  ["forgot-password", "", "Forgot your password?"],
];

export function AccountCard({
  page,
  title,
  intro,
  children,
}: {
  /** Which account page this is (its own link is left out). */
  page: AccountPage;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-sm flex-col gap-4 sm:pt-4">
      <section
        aria-labelledby="account-heading"
        className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <div className="flex flex-col gap-1">
          <h1 id="account-heading" className="text-2xl font-bold">
            {title}
          </h1>
          {intro && <p className="text-sm text-gray-600">{intro}</p>}
        </div>
        {children}
      </section>
      <nav aria-label="Account pages">
        <ul className="flex flex-col items-center gap-2 text-sm text-gray-700">
          {LINKS.filter(([p]) => p !== page).map(([p, lead, text]) => (
            <li key={p}>
              {lead && `${lead} `}
              <Link href={`/${p}`} className="font-medium text-brand-700 underline hover:text-brand-600">
                {text}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
