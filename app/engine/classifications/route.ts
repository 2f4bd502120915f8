// POST /engine/classifications: ingest one classification or a batch from a forwarder (202 once queued).
import { ingestClassifications } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = ingestClassifications;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
