import { collectionTitle } from "@/app/page-titles";
import Link from "next/link";
import { notFound } from "next/navigation";
import { loadCollection } from "@/lib/pages/collections";
import { isIdString } from "@/lib/text/params";
import { formatNumber } from "@/lib/text/format";
import { SubjectGrid } from "@/components/volunteer/subject-grid";
import { CollectionSettings, ShareLink } from "@/components/volunteer/collection-tools";
import { pageVisitor } from "../../visitor";

export const generateMetadata = collectionTitle;

export const dynamic = "force-dynamic";

/**
 * One collection: its subjects as thumbnails (each opens with its metadata, its project and a link to
 * classify there), a share link when public, and its owner's controls. A collection the visitor may not
 * see (another's private one) is a 404, as in the API.
 */
export default async function CollectionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isIdString(id)) notFound();
  const loaded = await loadCollection(Number(id), await pageVisitor());
  if (!loaded) notFound();
  const { collection: c, subjects, canEdit, canRemove } = loaded;
  const hidden = c.subjectsCount - subjects.length;
  return (
    <article className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-sm">
          <Link href={c.favorite ? "/favourites" : "/collections"} className="text-brand-700 underline">
            {c.favorite ? "Favourites" : "Collections"}
          </Link>
        </p>
        <h1 className="text-2xl font-bold break-words">{c.displayName}</h1>
        <p className="text-sm text-gray-600">
          {c.ownerLogin ? (
            <Link href={`/users/${encodeURIComponent(c.ownerLogin)}`} className="text-brand-700 underline">
              {c.ownerName}
            </Link>
          ) : (
            c.ownerName
          )}{" "}
          · {formatNumber(c.subjectsCount)} subject{c.subjectsCount === 1 ? "" : "s"} · {c.private ? "private" : "public"}
        </p>
        {c.description && <p className="whitespace-pre-line text-gray-800">{c.description}</p>}
      </header>
      {!c.private && <ShareLink path={`/collections/${c.id}`} />}
      <SubjectGrid
        empty={<>No subjects here yet. Add subjects with “Add to collection” while you classify.</>}
        subjects={subjects.map((s) => ({ ...s, collectionId: c.id }))}
        removable={canRemove}
        label="Subjects in this collection"
      />
      {hidden > 0 && (
        <p className="text-sm text-gray-600">
          {formatNumber(hidden)} more subject{hidden === 1 ? "" : "s"} not shown (the newest are listed first).
        </p>
      )}
      {canEdit && !c.favorite && (
        <CollectionSettings key={`${c.displayName}-${c.private}`} id={c.id} name={c.displayName} isPrivate={c.private} />
      )}
    </article>
  );
}
