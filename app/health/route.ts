// GET /health: the process lives (no database). For liveness probes (README, "Health, metrics and logs").
import { healthRoute } from "@/lib/ops/routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const dynamic = "force-dynamic";
export const GET = healthRoute;
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
