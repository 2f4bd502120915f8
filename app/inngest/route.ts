// GET/POST/PUT /inngest: serves the decision-engine pipeline functions to an Inngest server (404 when none
// is configured: the built-in queue runs them).
import { serve } from "inngest/next";
import { inngest } from "@/lib/engine/run/inngest-client";
import { functions } from "@/inngest/functions";
import { inngestConfigured } from "@/lib/engine/run/pipeline";
import { json } from "@/lib/http/respond";
import { declareScope } from "@/lib/http/route-scope";

const handlers = serve({ client: inngest, functions });
type Handler = (req: Request, ctx: unknown) => Promise<Response>;
const whenConfigured =
  (handler: Handler): Handler =>
  async (req, ctx) =>
    inngestConfigured()
      ? handler(req, ctx)
      : json({ errors: [{ message: "No Inngest server is configured: the pipeline runs on the built-in queue" }] }, 404);

// Inngest's own requests, which it signs (its signing key), never a bearer token's.
export const GET = declareScope("none", whenConfigured(handlers.GET as Handler));
export const POST = declareScope("none", whenConfigured(handlers.POST as Handler));
export const PUT = declareScope("none", whenConfigured(handlers.PUT as Handler));
