// GET/PUT /engine/workflows/<id>: a workflow's decision-engine configuration.
import { showWorkflow, updateWorkflow } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = showWorkflow;
export const PUT = updateWorkflow;

export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "PUT"]);
