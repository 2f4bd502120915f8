// GET /engine/workflows/<id>/reductions: the workflow's subject reductions, most recently changed first (or walked by last_id).
import { listWorkflowReductions } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listWorkflowReductions;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
