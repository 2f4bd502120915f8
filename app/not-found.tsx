import type { Metadata } from "next";
import { Link } from "@/components/ui/link";

export const metadata: Metadata = { title: "Page not found" };

/** The site's 404: what happened and where to go, in the site's frame (header and all). */
export default function NotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-start gap-3 rounded border border-gray-200 bg-white p-6 sm:p-8">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">404</p>
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-gray-700">
        There is no page at this address, or it belongs to a project you may not see. Check the link, or find a project to classify.
      </p>
      <Link href="/" className="rounded bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800">
        Browse the projects
      </Link>
    </section>
  );
}
