// POST /api/collections/<id>/links/subjects (owner, collaborators, contributors) and .../links/default_subject (editors).
import { collectionLinkRoutes } from "@/lib/handlers/collection-links";
import { collections } from "@/lib/resources/collections";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = collectionLinkRoutes(collections);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
