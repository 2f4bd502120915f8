// GET/POST /api/collections: user-curated sets of subjects (private ones only for their owner and role holders).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { collections } from "@/lib/resources/collections";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(collections);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
