// GET/POST /engine/workflows/<id>/extractors: the workflow's extractors, one by one (the established engine's API).
import { keyedCollectionRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = keyedCollectionRoutes("extractors");

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
