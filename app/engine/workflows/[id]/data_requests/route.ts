// GET/POST /engine/workflows/<id>/data_requests: the workflow's extracts or reductions as a CSV, built in the background.
import { dataRequestCollectionRoutes } from "@/lib/engine/http/data-requests";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = dataRequestCollectionRoutes;

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
