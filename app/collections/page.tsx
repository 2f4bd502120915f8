import type { Metadata } from "next";
import { loadCollectionsPage } from "@/lib/pages/collections";
import { publicBaseUrl } from "@/lib/env";
import { CollectionCards } from "@/components/volunteer/collection-cards";
import { NewCollectionForm } from "@/components/volunteer/collection-tools";
import { EmptyState } from "@/components/ui/query-state";
import { signedInVisitor } from "../visitor";

export const metadata: Metadata = { title: "Collections" };

export const dynamic = "force-dynamic";

/** The volunteer's collections (a new one made here, subjects added from the classify page), and other people's public ones. */
export default async function CollectionsPage() {
  const actor = await signedInVisitor("/collections");
  const { mine, others } = await loadCollectionsPage(actor);
  const base = publicBaseUrl();
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Collections</h1>
      <section aria-labelledby="my-collections" className="flex flex-col gap-3">
        <h2 id="my-collections" className="text-xl font-semibold">
          Your collections
        </h2>
        {mine.length ? (
          <CollectionCards cards={mine} label="Your collections" publicBase={base} />
        ) : (
          <EmptyState>You have no collections yet. Make one here, or with “Add to collection” while you classify.</EmptyState>
        )}
        <NewCollectionForm />
      </section>
      <section aria-labelledby="public-collections" className="flex flex-col gap-3">
        <h2 id="public-collections" className="text-xl font-semibold">
          Other volunteers’ public collections
        </h2>
        {others.length ? (
          <CollectionCards cards={others} label="Other volunteers’ public collections" publicBase={base} />
        ) : (
          <EmptyState>No other volunteer has shared a collection yet.</EmptyState>
        )}
      </section>
    </article>
  );
}
