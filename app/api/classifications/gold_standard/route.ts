// GET /api/classifications/gold_standard: see lib/resources/classifications.ts (goldStandardClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { goldStandardClassifications } from "@/lib/resources/classifications";

export const { GET } = collectionRoutes(goldStandardClassifications);
