// GET /engine/workflows/<id>/reductions: the workflow's subject reductions, most recently changed first (or walked by last_id).
import { listWorkflowReductions } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listWorkflowReductions;

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
