// GET /api/classifications/gold_standard: see lib/resources/classifications.ts (goldStandardClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { goldStandardClassifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(goldStandardClassifications);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
