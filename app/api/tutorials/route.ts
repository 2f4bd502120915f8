// GET/POST /api/tutorials: list (English tutorials unless `language` is given; workflow_id, kind) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(tutorials);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
