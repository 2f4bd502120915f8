// GET /engine/workflows/<id>/actions: recent actions with their status and error.
import { listActions } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listActions;

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
