// GET /engine/workflows/<id>/actions: recent actions with their status and error.
import { listActions } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listActions;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
