// GET/POST /api/tutorials: list (English tutorials unless `language` is given; workflow_id, kind) and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";

export const { GET, POST } = collectionRoutes(tutorials);
