// GET/POST /api/collections: user-curated sets of subjects (private ones only for their owner and role holders).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { collections } from "@/lib/resources/collections";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(collections);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
