// GET/PUT /engine/workflows/<id>: a workflow's decision-engine configuration.
import { showWorkflow, updateWorkflow } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = showWorkflow;
export const PUT = updateWorkflow;

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "PUT"]);
