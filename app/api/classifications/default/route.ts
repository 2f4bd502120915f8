// GET /api/classifications/default: see lib/resources/classifications.ts (ownCompleteClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { ownCompleteClassifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(ownCompleteClassifications);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
