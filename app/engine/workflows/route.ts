// POST /engine/workflows: add a workflow to the decision engine with its configuration.
import { createWorkflow } from "@/lib/engine/http/engine-routes";

export const POST = createWorkflow;
