import { profileTitle } from "@/app/page-titles";
import Link from "next/link";
import { notFound } from "next/navigation";
import { loadProfile } from "@/lib/pages/profile";
import { publicBaseUrl } from "@/lib/env";
import { decodedSegment } from "@/lib/text/params";
import { formatDay, formatNumber } from "@/lib/text/format";
import { localUploadUrlOrNull } from "@/components/ui/upload-url";
import { EmptyState } from "@/components/ui/query-state";
import { CollectionCards } from "@/components/volunteer/collection-cards";
import { MyCounts } from "@/components/volunteer/my-counts";
import { pageVisitor } from "../../visitor";

export const generateMetadata = profileTitle;

export const dynamic = "force-dynamic";

/**
 * A volunteer's profile: name, avatar, since when, and the collections the visitor may see; to the
 * volunteer themself also their projects with their classifications on each, and their counts over time.
 */
export default async function ProfilePage({ params }: { params: Promise<{ login: string }> }) {
  const login = decodedSegment((await params).login);
  const loaded = login === null ? null : await loadProfile(login, await pageVisitor());
  if (!loaded) notFound();
  const { user, self, projects, collections } = loaded;
  const avatar = localUploadUrlOrNull(loaded.avatar, publicBaseUrl());
  return (
    <article className="flex flex-col gap-6">
      <header className="flex items-center gap-4">
        {avatar ? (
          <img src={avatar} alt="" className="h-16 w-16 shrink-0 rounded-full object-cover" />
        ) : (
          <span
            aria-hidden="true"
            className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-brand-600 text-2xl font-bold text-white"
          >
            {user.displayName.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="min-w-0">
          <h1 className="text-2xl font-bold break-words">{user.displayName}</h1>
          <p className="text-sm text-gray-600">
            @{user.login} · taking part since {formatDay(user.createdAt, "month")}
          </p>
        </div>
      </header>
      {self && (
        <>
          <section aria-labelledby="my-projects" className="flex flex-col gap-3">
            <h2 id="my-projects" className="text-xl font-semibold">
              Your projects
            </h2>
            {projects.length ? (
              <ul className="flex flex-col gap-2">
                {projects.map((p) => (
                  <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 rounded border border-gray-200 bg-white p-3">
                    <Link href={`/projects/${p.id}`} className="font-medium text-brand-700 underline">
                      {p.displayName}
                    </Link>
                    <span className="flex items-center gap-3 text-sm">
                      <span data-testid="project-count">
                        {formatNumber(p.classifications)} classification{p.classifications === 1 ? "" : "s"}
                      </span>
                      <Link href={`/projects/${p.id}/classify`} className="text-brand-700 underline">
                        Classify
                      </Link>
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState>No classifications yet. Your projects show here once you classify.</EmptyState>
            )}
          </section>
          <section aria-labelledby="my-counts" className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4">
            <h2 id="my-counts" className="text-xl font-semibold">
              Your classifications over time
            </h2>
            <MyCounts userId={user.id} />
          </section>
        </>
      )}
      <section aria-labelledby="their-collections" className="flex flex-col gap-3">
        <h2 id="their-collections" className="text-xl font-semibold">
          {self ? "Your collections" : "Collections"}
        </h2>
        {collections.length ? (
          <CollectionCards cards={collections} label={`Collections of ${user.displayName}`} publicBase={publicBaseUrl()} />
        ) : (
          <EmptyState>{self ? "You have no collections yet." : "No public collections."}</EmptyState>
        )}
      </section>
    </article>
  );
}
