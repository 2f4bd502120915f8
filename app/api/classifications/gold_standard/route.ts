// GET /api/classifications/gold_standard: see lib/resources/classifications.ts (goldStandardClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { goldStandardClassifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(goldStandardClassifications);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
