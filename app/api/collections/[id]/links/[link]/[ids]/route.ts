// DELETE /api/collections/<id>/links/subjects/<comma-separated ids>: removes subjects from the collection (owner, collaborators).
import { collectionLinkRoutes } from "@/lib/domain/collection-links";
import { collections } from "@/lib/resources/collections";

export const { DELETE } = collectionLinkRoutes(collections);
