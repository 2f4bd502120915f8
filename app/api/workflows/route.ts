// GET/POST /api/workflows: list and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";

export const { GET, POST } = collectionRoutes(workflows);
