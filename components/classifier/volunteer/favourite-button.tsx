"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { apiDelete, apiGet, apiPost } from "@/components/ui/api-client";
import { useMe } from "./preferences";
import { Alert } from "@/components/ui/alert";
import { useAction } from "@/components/ui/use-action";
import type { CollectionRecord, Records } from "@/components/ui/wire-types";

/**
 * The heart toggle for the current subject, on the user's favourites collection of this project (created on
 * the first favourite), with the requests the established front end makes; a sign-in hint when anonymous.
 */
export function FavouriteButton({ projectId, subjectId }: { projectId: string; subjectId: string }) {
  const me = useMe();
  const client = useQueryClient();
  const key = ["favourites", projectId, me.data?.login];
  const favourites = useQuery({
    queryKey: key,
    enabled: !!me.data,
    queryFn: async () =>
      (
        await apiGet<Records<"collections", CollectionRecord>>(
          `/collections?favorite=true&project_ids=${projectId}&owner=${encodeURIComponent(me.data!.login)}`,
        )
      ).collections[0] ?? null,
  });
  const isFavourite = !!favourites.data?.links.subjects?.includes(subjectId);
  const toggle = useAction();
  const flip = () =>
    toggle.run(async () => {
      try {
        const c = favourites.data;
        if (!c) {
          await apiPost("/collections", {
            collections: {
              display_name: `Favorites ${projectId}`,
              favorite: true,
              private: true,
              links: { project: projectId, subjects: [subjectId] },
            },
          });
        } else if (isFavourite) {
          await apiDelete(`/collections/${c.id}/links/subjects/${subjectId}`);
        } else await apiPost(`/collections/${c.id}/links/subjects`, { subjects: [subjectId] });
      } finally {
        // Busy until the favourites are read again, so the next press toggles what is shown.
        await client.invalidateQueries({ queryKey: key });
      }
    });
  if (me.isPending) return null;
  if (!me.data)
    return (
      <p className="text-sm text-gray-600">
        <Link href="/sign-in" className="text-brand-700 underline">
          Sign in
        </Link>{" "}
        to favourite subjects and add them to collections.
      </p>
    );
  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        aria-pressed={isFavourite}
        disabled={favourites.isPending || toggle.busy}
        onClick={() => void flip()}
        className={
          "rounded border border-gray-300 bg-white px-3 py-1 text-sm hover:bg-gray-100 disabled:opacity-50 " +
          "focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
        }
      >
        <span aria-hidden="true" className={isFavourite ? "text-rose-600" : "text-gray-400"}>
          {isFavourite ? "♥" : "♡"}
        </span>{" "}
        Favourite
      </button>
      {(toggle.outcome?.kind === "error" || favourites.isError) && (
        <Alert as="span" inline>
          Favourites could not be updated.
        </Alert>
      )}
    </span>
  );
}
