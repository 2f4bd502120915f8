import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { auth, signOut } from "@/lib/auth/next-auth";
import { publicBaseUrl } from "@/lib/env";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = { title: "Quorum", description: "Crowdsourced classification for research teams" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  return (
    <html lang="en">
      <body className="min-h-screen bg-gray-50 font-sans text-gray-900 antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:m-2 focus:rounded focus:bg-white focus:p-2">
          Skip to content
        </a>
        <header className="border-b border-gray-200 bg-white">
          <nav aria-label="Main" className="mx-auto flex max-w-5xl flex-wrap items-center gap-4 px-4 py-3">
            <Link href="/" className="text-lg font-bold text-brand-700">
              Quorum
            </Link>
            <Link href="/" className="text-sm text-gray-700 hover:text-brand-700">
              Projects
            </Link>
            <Link href="/stats" className="text-sm text-gray-700 hover:text-brand-700">
              Statistics
            </Link>
            {session?.user && (
              <Link href="/lab" className="text-sm text-gray-700 hover:text-brand-700">
                Lab
              </Link>
            )}
            <div className="ml-auto flex items-center gap-3 text-sm">
              {session?.user ? (
                <>
                  <span data-testid="signed-in-as">Signed in as {session.user.name}</span>
                  <form
                    action={async () => {
                      "use server";
                      await signOut({ redirectTo: "/" });
                    }}
                  >
                    <button type="submit" className="rounded border border-gray-300 px-3 py-1 hover:bg-gray-100">
                      Sign out
                    </button>
                  </form>
                </>
              ) : (
                <>
                  <Link href="/sign-in" className="rounded px-3 py-1 hover:bg-gray-100">
                    Sign in
                  </Link>
                  <Link href="/sign-up" className="rounded bg-brand-600 px-3 py-1 text-white hover:bg-brand-700">
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
      </body>
    </html>
  );
}
