// GET /api/classifications/default: see lib/resources/classifications.ts (ownCompleteClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { ownCompleteClassifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(ownCompleteClassifications);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
