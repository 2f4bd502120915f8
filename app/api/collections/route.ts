// GET/POST /api/collections: user-curated sets of subjects (private ones only for their owner and role holders).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { collections } from "@/lib/resources/collections";

export const { GET, POST } = collectionRoutes(collections);
