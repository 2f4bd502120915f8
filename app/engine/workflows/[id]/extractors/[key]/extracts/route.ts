// GET/POST /engine/workflows/<id>/extractors/<key>/extracts: a subject's extracts; upsert one (starts reduction).
import { listExtracts, upsertExtractRoute } from "@/lib/engine/http/engine-routes";

export const GET = listExtracts;
export const POST = upsertExtractRoute;
