import { db } from "@/lib/db";

// Organization search (GET /api/organizations?search=...): organizations whose display name is the query
// (without regard to case) come first; queries of 3 or more characters also match similar names by
// trigram (the gin index on lower(display_name) serves both `%` and `<%`), most similar first. Shorter
// queries match exactly or not at all, as on the reference platform.

/** How many ranked candidates a search considers before visibility and the other filters. */
const MAX_CANDIDATES = 1000;
export const FUZZY_SEARCH_MIN_LENGTH = 3;

/** Ids of organizations matching the query, best match first (visibility is applied by the caller). */
export async function rankedOrganizationIds(query: string): Promise<number[]> {
  const q = query.trim();
  if (!q) return [];
  const fuzzy = q.length >= FUZZY_SEARCH_MIN_LENGTH;
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT id FROM organizations
    WHERE lower(display_name) = lower(${q})
       OR (${fuzzy} AND (lower(display_name) % lower(${q}) OR lower(${q}) <% lower(display_name)))
    ORDER BY lower(display_name) = lower(${q}) DESC,
             greatest(similarity(lower(display_name), lower(${q})), word_similarity(lower(${q}), lower(display_name))) DESC,
             id
    LIMIT ${MAX_CANDIDATES}`;
  return rows.map((r) => r.id);
}
