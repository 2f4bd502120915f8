// GET /api/subjects/queued?workflow_id=: the next subjects for the caller to classify.
import { queuedRoute } from "@/lib/domain/queue-response";

export const GET = queuedRoute;
