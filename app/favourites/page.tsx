import type { Metadata } from "next";
import Link from "next/link";
import { loadFavourites } from "@/lib/pages/collections";
import { isIdString } from "@/lib/text/params";
import { SubjectGrid } from "@/components/volunteer/subject-grid";
import { signedInVisitor } from "../visitor";

export const metadata: Metadata = { title: "Favourites" };

export const dynamic = "force-dynamic";

/** The subjects the volunteer favourited while classifying, newest first, of every project or of one (?project=<id>). */
export default async function FavouritesPage({ searchParams }: { searchParams: Promise<{ project?: string }> }) {
  const { project } = await searchParams;
  const projectId = project && isIdString(project) ? Number(project) : undefined;
  const actor = await signedInVisitor(projectId ? `/favourites?project=${projectId}` : "/favourites");
  const [all, shown] = await Promise.all([loadFavourites(actor), projectId ? loadFavourites(actor, projectId) : null]);
  const { subjects } = shown ?? all;
  const chip =
    "rounded-full border px-3 py-1 text-sm aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white";
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Favourites</h1>
      {all.projects.length > 1 && (
        <nav aria-label="Favourites by project">
          <ul className="flex flex-wrap gap-2">
            <li>
              <Link href="/favourites" aria-current={projectId ? undefined : "page"} className={`${chip} border-gray-300 bg-white`}>
                All projects
              </Link>
            </li>
            {all.projects.map((p) => (
              <li key={p.id}>
                <Link
                  href={`/favourites?project=${p.id}`}
                  aria-current={projectId === p.id ? "page" : undefined}
                  className={`${chip} border-gray-300 bg-white`}
                >
                  {p.displayName}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <SubjectGrid
        empty={<>No favourites yet. Press “Favourite” under a subject while you classify, and it is kept here.</>}
        subjects={subjects}
        removable
        label="Your favourite subjects"
        removeLabel="Remove from favourites"
      />
    </article>
  );
}
