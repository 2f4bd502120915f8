// GET/POST /engine/workflows/<id>/extractors/<key>/extracts: a subject's extracts; upsert one (starts reduction).
import { listExtracts, upsertExtractRoute } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listExtracts;
export const POST = upsertExtractRoute;

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
