// GET/POST /api/aggregations: aggregation runs of workflows (their projects' editors); POST also asks the aggregation service to start the run.
import { startAggregationRoute } from "@/lib/domain/start-aggregation";
import { collectionRoutes } from "@/lib/http/resource-routes";
import { aggregations } from "@/lib/resources/aggregations";

export const { GET } = collectionRoutes(aggregations);
export const POST = startAggregationRoute;
