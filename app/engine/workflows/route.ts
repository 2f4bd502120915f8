// POST /engine/workflows: add a workflow to the decision engine with its configuration.
import { createWorkflow } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = createWorkflow;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
