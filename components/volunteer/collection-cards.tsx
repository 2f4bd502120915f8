import Link from "next/link";
import { localUploadUrl } from "@/components/ui/upload-url";
import { formatNumber } from "@/lib/text/format";

/** A collection as a card shows it (lib/pages/collections.ts's collectionCards reads them). */
interface CollectionCard {
  id: number;
  displayName: string;
  private: boolean;
  ownerName: string;
  subjectsCount: number;
  thumbnail: string | null;
}

/** Collections as cards linking to their pages: a thumbnail, the name, whose, how many subjects, private or not. */
export function CollectionCards({ cards, label, publicBase }: { cards: CollectionCard[]; label: string; publicBase: string }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label={label}>
      {cards.map((c) => (
        <li key={c.id}>
          <Link
            href={`/collections/${c.id}`}
            className="flex h-full flex-col overflow-hidden rounded border border-gray-200 bg-white hover:border-brand-600"
          >
            {c.thumbnail ? (
              <img src={localUploadUrl(c.thumbnail, publicBase)} alt="" className="aspect-square w-full object-cover" loading="lazy" />
            ) : (
              <span aria-hidden="true" className="flex aspect-square w-full items-center justify-center bg-gray-100 text-3xl text-gray-400">
                ▦
              </span>
            )}
            <span className="flex flex-col gap-0.5 px-2 py-1.5 [overflow-wrap:anywhere]">
              <span className="font-medium">{c.displayName}</span>
              <span className="text-xs text-gray-600">
                {c.ownerName} · {formatNumber(c.subjectsCount)} subject{c.subjectsCount === 1 ? "" : "s"}
                {c.private ? " · private" : ""}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
