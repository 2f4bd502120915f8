// GET /engine/workflows/<id>/extracts: the workflow's extracts in id order, a keyset page at a time (last_id).
import { listWorkflowExtracts } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listWorkflowExtracts;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
