// GET /engine/workflows/<id>/actions: recent actions with their status and error.
import { listActions } from "@/lib/engine/http/engine-routes";

export const GET = listActions;
