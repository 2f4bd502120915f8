import { Inngest } from "inngest";

// The Inngest client. It is used only when an Inngest server is configured (INNGEST_EVENT_KEY and
// INNGEST_SIGNING_KEY for Inngest Cloud; INNGEST_DEV=1 or INNGEST_BASE_URL for a dev or self-hosted
// server); otherwise the same stages run from the Postgres-backed queue (lib/engine/run/pipeline.ts).
export const inngest = new Inngest({ id: "quorum" });
