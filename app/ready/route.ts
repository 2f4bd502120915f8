// GET /ready: this process can serve now (database, migrations, the worker's lease, not shutting down);
// 503 naming the check that failed. For readiness probes and load balancers' health checks.
import { readyRoute } from "@/lib/ops/routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { workerStatus } from "@/lib/jobs/worker";

export const dynamic = "force-dynamic";
export const GET = readyRoute(workerStatus);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
