import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { signOut } from "@/lib/auth/next-auth";
import { publicBaseUrl, sourceUrl } from "@/lib/env";
import type { HeaderAccount } from "@/components/account-menu";
import { AccountMenu, SiteNav } from "@/components/site-nav";
import { pageVisitor } from "./visitor";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Quorum", template: "%s · Quorum" },
  description: "Crowdsourced classification for research teams",
};

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: "/" });
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The session's user as the database has them now (a new display name shows at once).
  const { user } = await pageVisitor();
  const account: HeaderAccount | undefined = user
    ? { name: user.displayName, login: user.login, admin: user.admin, signOut: signOutAction }
    : undefined;
  return (
    <html lang="en">
      <body className="min-h-screen bg-gray-50 font-sans text-gray-900 antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:m-2 focus:rounded focus:bg-white focus:p-2">
          Skip to content
        </a>
        <header className="relative border-b border-gray-200 bg-white">
          <nav aria-label="Main" className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-3 sm:gap-4">
            <Link href="/" className="text-lg font-bold text-brand-700">
              Quorum
            </Link>
            <SiteNav
              links={[
                { href: "/", label: "Projects" },
                { href: "/stats", label: "Statistics" },
                ...(user ? [{ href: "/lab", label: "Lab" }] : []),
              ]}
              note={user ? `Signed in as ${user.displayName}` : undefined}
              account={account}
            />
            <div className="ml-auto flex shrink-0 items-center gap-2 text-sm sm:gap-3">
              {account ? (
                <AccountMenu account={account} />
              ) : (
                <>
                  <Link href="/sign-in" className="rounded px-3 py-1 whitespace-nowrap hover:bg-gray-100">
                    Sign in
                  </Link>
                  <Link href="/sign-up" className="rounded bg-brand-600 px-3 py-1 whitespace-nowrap text-white hover:bg-brand-700">
                    Register
                  </Link>
                </>
              )}
            </div>
          </nav>
        </header>
        {/* PUBLIC_URL, so pages show and upload our files by path on whatever origin they were opened at. */}
        <Providers publicBase={publicBaseUrl()}>
          <main id="main" className="mx-auto max-w-5xl px-4 py-8">
            {children}
          </main>
        </Providers>
        <SiteFooter source={sourceUrl()} />
      </body>
    </html>
  );
}

/** Every page's footer: what Quorum is, the statistics, the source code, the lab for research teams. */
function SiteFooter({ source }: { source: string | null }) {
  const link = "text-brand-700 underline hover:text-brand-600";
  return (
    <footer className="border-t border-gray-200 bg-white">
      <nav aria-label="Footer" className="mx-auto flex max-w-5xl flex-wrap gap-x-6 gap-y-2 px-4 py-6 text-sm text-gray-700">
        <Link href="/#about" className={link}>
          About Quorum
        </Link>
        <Link href="/stats" className={link}>
          Statistics
        </Link>
        {source ? (
          <a href={source} className={link}>
            Source code
          </a>
        ) : (
          <span>Open-source software</span>
        )}
        <Link href="/lab" className={link}>
          The lab: build a project
        </Link>
      </nav>
    </footer>
  );
}
