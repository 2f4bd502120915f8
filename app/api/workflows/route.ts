// GET/POST /api/workflows: list and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(workflows);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
