// GET/POST /api/tutorials: list (English tutorials unless `language` is given; workflow_id, kind) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(tutorials);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
