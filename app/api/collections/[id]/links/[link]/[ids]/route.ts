// DELETE /api/collections/<id>/links/subjects/<comma-separated ids>: removes subjects from the collection (owner, collaborators).
import { collectionLinkRoutes } from "@/lib/handlers/collection-links";
import { collections } from "@/lib/resources/collections";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { DELETE } = collectionLinkRoutes(collections);

export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
