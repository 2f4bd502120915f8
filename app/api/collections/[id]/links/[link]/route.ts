// POST /api/collections/<id>/links/subjects (owner, collaborators, contributors) and .../links/default_subject (editors).
import { collectionLinkRoutes } from "@/lib/domain/collection-links";
import { collections } from "@/lib/resources/collections";

export const { POST } = collectionLinkRoutes(collections);
