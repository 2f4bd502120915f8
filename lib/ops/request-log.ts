import { requestLog } from "@/lib/log/logger";
import { metrics } from "@/lib/log/metrics";
import { onRequestFinished, type FinishedRequest } from "@/lib/net/peer-address";
import { routePattern } from "./route-pattern";

// One log line and one metrics observation per request, when the edge sees its answer end
// (lib/net/peer-address.ts). The line names the route pattern, never the path or the query (they can
// hold ids of private records, emails, reset tokens); it holds no header, no body and no address:
//
//   {"level":"info","time":"...","pid":1,"requestId":"...","userId":7,"method":"POST",
//    "route":"/api/classifications","status":201,"ms":12.4,"msg":"POST /api/classifications 201"}
//
// status 0 is a request whose connection ended before its answer did. The line is built from these fields
// only, so it is written without the general log's redaction (lib/log/logger.ts, `plain`).

export function requestLine(r: FinishedRequest): Record<string, unknown> {
  return {
    requestId: r.context.requestId,
    userId: r.context.userId,
    method: r.method,
    route: routePattern(r.url),
    status: r.status,
    ms: Math.round(r.seconds * 10_000) / 10,
  };
}

/** Starts the request log and the HTTP metrics (once per process). */
export function logRequests(): void {
  const logger = requestLog();
  const http = metrics().httpRequests;
  onRequestFinished((r) => {
    const line = requestLine(r);
    http.observe({ method: r.method, route: line.route as string, status: String(r.status) }, r.seconds);
    const level = r.status >= 500 || r.status === 0 ? "warn" : "info";
    logger[level](line, `${r.method} ${line.route} ${r.status}`);
  });
}
