// POST /engine/classifications: ingest one classification or a batch from a forwarder (202 once queued).
import { ingestClassifications } from "@/lib/engine/http/engine-routes";

export const POST = ingestClassifications;
