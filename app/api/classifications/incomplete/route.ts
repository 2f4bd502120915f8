// GET /api/classifications/incomplete: see lib/resources/classifications.ts (ownIncompleteClassifications).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { ownIncompleteClassifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(ownIncompleteClassifications);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
