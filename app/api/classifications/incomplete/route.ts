// GET /api/classifications/incomplete: see lib/resources/classifications.ts (ownIncompleteClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { ownIncompleteClassifications } from "@/lib/resources/classifications";

export const { GET } = collectionRoutes(ownIncompleteClassifications);
