// GET /api/classifications/default: see lib/resources/classifications.ts (ownCompleteClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { ownCompleteClassifications } from "@/lib/resources/classifications";

export const { GET } = collectionRoutes(ownCompleteClassifications);
