// POST /engine/workflows/<id>/extracts/import: imports machine-made extracts from a CSV at a URL (background job, 202).
import { importExtractsRoute } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = importExtractsRoute;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
