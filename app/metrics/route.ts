// GET /metrics: the Prometheus exposition, summed over the instance's processes (METRICS_TOKEN or METRICS_ALLOW).
import { metricsRoute } from "@/lib/ops/routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const dynamic = "force-dynamic";
export const GET = metricsRoute;
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
