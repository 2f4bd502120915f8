// POST /engine/workflows/<id>/extracts/import: imports machine-made extracts from a CSV at a URL (background job, 202).
import { importExtractsRoute } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = importExtractsRoute;

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
