import cluster from "node:cluster";
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import { AggregatorRegistry } from "prom-client";
import { metrics, scrape } from "@/lib/log/metrics";
import { clientAddress, normalizeAddress, parseTrustProxy } from "@/lib/net/peer-address";

// GET /metrics: the Prometheus exposition of lib/log/metrics.ts. With WEB_CONCURRENCY > 1 every process
// has its own metrics; the process a scrape reaches asks the cluster's primary (scripts/start.ts), which
// collects every process's (prom-client's AggregatorRegistry over node:cluster) and answers the sum, so
// one scrape sees the whole instance.
//
// Who may scrape: a request with `Authorization: Bearer <METRICS_TOKEN>` when that is set, or one whose
// client address (as the edge resolved it, lib/net/peer-address.ts: never a header a client writes) is in
// METRICS_ALLOW: addresses, CIDR ranges and the names loopback, linklocal, uniquelocal, as TRUST_PROXY
// takes them; default `loopback`, `none` for nobody. Anyone else gets a 403 (401 when a token is set).

const REQUEST = "quorum:metrics-request";
const RESPONSE = "quorum:metrics-response";
const CLUSTER_TIMEOUT_MS = 5000;

/** The text a scrape answers: this process's metrics, or the whole cluster's when this is one of its processes. */
export async function exposition(): Promise<{ contentType: string; text: string }> {
  const { registry } = metrics();
  if (!cluster.isWorker || !process.send) return { contentType: registry.contentType, text: await scrape() };
  const id = crypto.randomUUID();
  const text = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("the cluster's primary did not answer"));
    }, CLUSTER_TIMEOUT_MS);
    function onMessage(m: { type?: string; id?: string; text?: string; error?: string }) {
      if (m?.type !== RESPONSE || m.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (m.error !== undefined) reject(new Error(m.error));
      else resolve(m.text ?? "");
    }
    process.on("message", onMessage);
    process.send!({ type: REQUEST, id });
  });
  return { contentType: registry.contentType, text };
}

/** In a cluster process: answers the primary's requests for this process's metrics (prom-client's protocol). */
export function offerClusterMetrics(): void {
  if (!cluster.isWorker) return;
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metrics().registry]);
}

/** In the cluster's primary (scripts/start.ts): answers a process's request for the whole cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, m: { type?: string; id?: string }) => {
    if (m?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: RESPONSE, id: m.id, text }),
      (err: Error) => worker.isConnected() && worker.send({ type: RESPONSE, id: m.id, error: err.message }),
    );
  });
}

/** Whether the request may read the metrics (see above): "ok", or why not. */
export function metricsAccess(req: Request): "ok" | "token" | "address" {
  const token = process.env.METRICS_TOKEN ?? "";
  const header = req.headers.get("authorization") ?? "";
  const sent = /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1];
  if (token && sent) {
    const a = crypto.createHash("sha256").update(sent).digest();
    const b = crypto.createHash("sha256").update(token).digest();
    if (crypto.timingSafeEqual(a, b)) return "ok";
  }
  const address = clientAddress(req);
  if (address && allowedAddresses().check(address)) return "ok";
  return token ? "token" : "address";
}

let allowed: { text: string; check: (address: string) => boolean } | undefined;

/** METRICS_ALLOW, parsed (again when it changes: tests). Throws when it is not a list of addresses and ranges. */
export function allowedAddresses(): { check: (address: string) => boolean } {
  const text = (process.env.METRICS_ALLOW ?? "loopback").trim();
  if (allowed?.text === text) return allowed;
  let check: (address: string) => boolean = () => false;
  if (text !== "none" && text !== "") {
    let trust: ReturnType<typeof parseTrustProxy>;
    try {
      trust = parseTrustProxy(text);
    } catch (err) {
      throw new Error(`METRICS_ALLOW: ${(err as Error).message.replace(/^TRUST_PROXY: /, "")}`);
    }
    if (trust.kind !== "list") throw new Error("METRICS_ALLOW: addresses, CIDR ranges, loopback, linklocal, uniquelocal, or none");
    check = (address) => {
      const a = normalizeAddress(address);
      return net.isIPv4(a) ? trust.list.check(a, "ipv4") : net.isIPv6(a) ? trust.list.check(a, "ipv6") : false;
    };
  }
  allowed = { text, check };
  return allowed;
}

/**
 * A listener of its own for the metrics (`npm run worker`, which serves nothing else): GET /metrics on
 * `host:port`, protected by where it listens (127.0.0.1 unless told otherwise). Resolves once listening.
 */
export function listenForMetrics(port: number, host = "127.0.0.1"): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ errors: [{ message: "Not Found" }] }));
      return;
    }
    const { registry } = metrics();
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" }).end(text),
      () =>
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ errors: [{ message: "metrics unavailable" }] })),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
