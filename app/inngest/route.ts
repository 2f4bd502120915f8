// GET/POST/PUT /inngest: serves the decision-engine pipeline functions to an Inngest server.
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";

export const { GET, POST, PUT } = serve({ client: inngest, functions });
