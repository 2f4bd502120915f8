// GET /api/subjects/queued?workflow_id=: the next subjects for the caller to classify.
import { queuedRoute } from "@/lib/handlers/queue-response";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = queuedRoute;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
