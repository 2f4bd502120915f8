import { AppError } from "@/lib/errors";
import { jsonRoute } from "@/lib/http/api-route";
import { json } from "@/lib/http/respond";
import { readiness, type WorkerState } from "@/lib/ops/health";
import { exposition, metricsAccess } from "@/lib/ops/metrics";

// GET /health, GET /ready and GET /metrics (lib/ops/health.ts and lib/ops/metrics.ts say what they
// answer). None needs a token scope: /health and /ready are for load balancers and orchestrators, /metrics
// has its own token or address check.

const NO_STORE = { "cache-control": "no-store" };

/** The process lives: 200 {"status":"ok"}, no database. */
export const healthRoute = jsonRoute({ scope: "none" }, async () => json({ status: "ok" }, 200, NO_STORE));

/** This process can serve: 200 when every check passes, else 503; the body names each check and what failed. */
export function readyRoute(worker: () => WorkerState | null) {
  return jsonRoute({ scope: "none" }, async () => {
    const r = await readiness(worker());
    return json(r, r.status === "ready" ? 200 : 503, NO_STORE);
  });
}

/** The Prometheus exposition, for METRICS_TOKEN's bearer or a client in METRICS_ALLOW. */
export const metricsRoute = jsonRoute({ scope: "none" }, async (req) => {
  const access = metricsAccess(req);
  if (access === "token")
    throw new AppError("unauthorized", "The metrics need the METRICS_TOKEN bearer token", undefined, {
      "WWW-Authenticate": 'Bearer realm="metrics"',
    });
  if (access === "address")
    throw new AppError("forbidden", "The metrics are served to METRICS_ALLOW's addresses (or with METRICS_TOKEN) only");
  const { contentType, text } = await exposition();
  return new Response(text, { status: 200, headers: { "content-type": contentType, ...NO_STORE } });
});
