// GET/POST /api/aggregations: aggregation runs of workflows (their projects' editors); POST also asks the aggregation service to start the run.
import { startAggregationRoute } from "@/lib/handlers/aggregation-routes";
import { collectionRoutes } from "@/lib/http/resource-routes";
import { aggregations } from "@/lib/resources/aggregations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(aggregations);
export const POST = startAggregationRoute;

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
