// GET /engine/workflows/<id>/extracts: the workflow's extracts in id order, a keyset page at a time (last_id).
import { listWorkflowExtracts } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listWorkflowExtracts;

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
