// The client's address, from the socket unless the operator says which proxies to trust (TRUST_PROXY).
//
// Next fills X-Forwarded-For from the socket only when the request has none (`??=`), so a client that
// writes the header itself would choose its own address, and with it a fresh budget under every
// per-address abuse limit. This module sits in front of Next in the server process: for every request it
// reads the socket's address, drops the forwarded headers (X-Forwarded-For/-Host/-Proto/-Port, X-Real-IP,
// Forwarded) unless the socket is a trusted proxy, resolves the client's address by TRUST_PROXY, and hands
// that to the route code in a header whose name is random per process, so no client can write it.
//
// The same edge gives every request its id and its log context, counts the requests in flight and hands
// each finished one to the request log and the metrics (see "Requests: ids, log lines, metrics, shutdown"
// below).
//
// It is loaded with `node --import` by scripts/start.ts (before Next creates its server) and installed
// again by instrumentation.ts (for a server started another way); both share one state on globalThis.
// Only node: built-ins and erasable TypeScript here: Node runs this file directly.
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";

export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "list"; list: net.BlockList; text: string };

/** A request the edge saw end (answered, or its connection gone first). */
export interface FinishedRequest {
  method: string;
  /** The request target as the client sent it (path and query): for routing only, never logged. */
  url: string;
  /** The status sent, or 0 when the connection ended before the answer did. */
  status: number;
  seconds: number;
  /** The request's log context (lib/log/context.ts): its id, and its user once the route knew it. */
  context: { requestId?: string; userId?: number };
}

interface PeerState {
  header: string;
  trust: TrustProxy;
  installed: boolean;
  /** The answers not yet ended, and the servers they came through. */
  inFlight: Set<http.ServerResponse>;
  servers: Set<http.Server>;
  /** Set once the servers are closing: no new connections, and every answer closes its connection. */
  closing: boolean;
  /** Set once the server's own shutdown handles the signals (lib/ops/shutdown.ts): the stop below stands down. */
  signalsTaken: boolean;
  /** Called for every request that ended (set by the server's observability, lib/log/request-log.ts). */
  onFinished?: (r: FinishedRequest) => void;
}

const STATE = Symbol.for("quorum.peer-address");
const FORWARDED_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "forwarded"];

// Named ranges as Express's `trust proxy` knows them.
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, as dual-stack sockets report IPv4 peers) as IPv4. */
export function normalizeAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped ? mapped[1] : a;
}

function addRange(list: net.BlockList, entry: string): void {
  const [addr, bitsText] = entry.split("/");
  const family = net.isIPv4(addr) ? "ipv4" : net.isIPv6(addr) ? "ipv6" : null;
  if (!family) throw new Error(`TRUST_PROXY: '${entry}' is not an address, a CIDR range or one of ${Object.keys(NAMED_RANGES).join(", ")}`);
  if (bitsText === undefined) {
    list.addAddress(addr, family);
    return;
  }
  const bits = Number(bitsText);
  const max = family === "ipv4" ? 32 : 128;
  if (!/^\d+$/.test(bitsText) || bits > max) throw new Error(`TRUST_PROXY: '${entry}' has a bad prefix length`);
  list.addSubnet(addr, bits, family);
}

/**
 * TRUST_PROXY: unset, empty, `false` or `0`: no proxy, the socket's address is the client's. A whole
 * number N: N proxies stand in front (the client is the Nth address from the right of X-Forwarded-For
 * plus the socket). Otherwise addresses, CIDR ranges and the names loopback, linklocal, uniquelocal,
 * separated by commas or spaces: the proxies whose forwarded headers are believed. `true` is refused:
 * trusting every hop is trusting the client.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? "").trim();
  if (text === "" || text === "false" || text === "0") return { kind: "none" };
  if (/^\d+$/.test(text)) return { kind: "hops", hops: Number(text) };
  if (text === "true" || text === "*")
    throw new Error("TRUST_PROXY: say how many proxies stand in front (a number) or which they are (addresses or CIDR ranges), not 'true'");
  const list = new net.BlockList();
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    for (const range of NAMED_RANGES[entry.toLowerCase()] ?? [entry]) addRange(list, range);
  }
  return { kind: "list", list, text };
}

function listed(list: net.BlockList, address: string): boolean {
  if (net.isIPv4(address)) return list.check(address, "ipv4");
  if (net.isIPv6(address)) return list.check(address, "ipv6");
  return false;
}

/** Whether the socket's peer is a proxy whose forwarded headers are believed. */
export function trustsPeer(trust: TrustProxy, peer: string): boolean {
  if (trust.kind === "none") return false;
  if (trust.kind === "hops") return trust.hops > 0;
  return listed(trust.list, normalizeAddress(peer));
}

/**
 * The client's address: the socket's peer, or (when the peer is trusted) read from X-Forwarded-For from
 * the right, past the trusted proxies. An entry that is not an address ends the walk there.
 */
export function resolveClientAddress(trust: TrustProxy, peer: string, forwardedFor: string | undefined): string {
  const socket = normalizeAddress(peer);
  if (!trustsPeer(trust, socket)) return socket;
  // Nearest first: the socket, then X-Forwarded-For from its right end.
  const chain = [
    socket,
    ...(forwardedFor ?? "")
      .split(",")
      .map((s) => normalizeAddress(s))
      .filter(Boolean)
      .reverse(),
  ];
  let i = 0;
  if (trust.kind === "hops") {
    i = Math.min(trust.hops, chain.length - 1);
  } else if (trust.kind === "list") {
    while (i < chain.length - 1 && listed(trust.list, chain[i])) i++;
  }
  // A proxy that let a malformed entry through: the last good hop is the client as far as we can tell.
  while (i > 0 && net.isIP(chain[i]) === 0) i--;
  return chain[i];
}

function state(): PeerState {
  const g = globalThis as unknown as Record<symbol, PeerState | undefined>;
  g[STATE] ??= {
    header: `x-quorum-peer-${crypto.randomBytes(12).toString("hex")}`,
    trust: { kind: "none" },
    installed: false,
    inFlight: new Set(),
    servers: new Set(),
    closing: false,
    signalsTaken: false,
  };
  return g[STATE];
}

/**
 * What the edge does to one request's headers: forwarded headers kept only from a trusted proxy, the
 * client's address added. Answers whether the socket is a trusted proxy.
 */
export function stampRequest(headers: http.IncomingHttpHeaders, peer: string | undefined): boolean {
  const s = state();
  const socket = peer ?? "";
  const trusted = trustsPeer(s.trust, normalizeAddress(socket));
  const forwardedFor = headers["x-forwarded-for"];
  const client = socket ? resolveClientAddress(s.trust, socket, Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor) : "";
  if (!trusted) for (const name of FORWARDED_HEADERS) delete headers[name];
  headers[s.header] = client;
  return trusted;
}

/** Puts the edge in front of every HTTP server of this process (idempotent). Throws on a bad TRUST_PROXY. */
export function installPeerAddress(): void {
  const s = state();
  if (s.installed) return;
  s.trust = parseTrustProxy(process.env.TRUST_PROXY);
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      const trusted = stampRequest(req.headers, req.socket?.remoteAddress);
      const context = trackRequest(s, this, req, args[1] as http.ServerResponse, trusted);
      return logContextStore().run(context, () => Reflect.apply(emit, this, [event, ...args]) as boolean);
    }
    if (event === "listening") s.servers.add(this);
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
  s.installed = true;
}

/**
 * The client's address as the edge resolved it, or null when the request did not come through an HTTP
 * server of this process (in-process calls and tests) or the socket had no address.
 */
export function clientAddress(req: Request): string | null {
  return req.headers.get(state().header) || null;
}

/** For tests: the header the edge would set, to make a request as if from `address`. */
export function clientAddressHeader(address: string): [string, string] {
  return [state().header, address];
}

// ---- Requests: ids, log lines, metrics, shutdown
//
// Every request gets an id: the X-Request-Id a trusted proxy (TRUST_PROXY) sent, when it is 1 to 128
// letters, digits and `-_.:`, else a new UUID (a client's own is replaced: it could name another's
// request). The id is set on the request (X-Request-Id, for the route code) and on the answer, and the
// rest of the request runs in a log context holding it (lib/log/context.ts, whose store this shares).
// When the answer ends, the request is handed to `onFinished` (the request log line and the HTTP metrics).
// closeServers() is the first step of a graceful shutdown: no new connections, every answer from then on
// closes its connection, and it resolves when the answers in flight have ended.

const LOG_CONTEXT = Symbol.for("quorum.log-context");
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function logContextStore(): AsyncLocalStorage<FinishedRequest["context"]> {
  const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<FinishedRequest["context"]> | undefined>;
  g[LOG_CONTEXT] ??= new AsyncLocalStorage();
  return g[LOG_CONTEXT];
}

function trackRequest(
  s: PeerState,
  server: http.Server,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  trusted: boolean,
): FinishedRequest["context"] {
  const sent = req.headers["x-request-id"];
  const requestId = trusted && typeof sent === "string" && REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
  req.headers["x-request-id"] = requestId;
  const context: FinishedRequest["context"] = { requestId };
  if (!res) return context;
  res.setHeader("X-Request-Id", requestId);
  if (s.closing) res.setHeader("Connection", "close");
  s.servers.add(server);
  s.inFlight.add(res);
  const start = process.hrtime.bigint();
  res.once("close", () => {
    s.inFlight.delete(res);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    try {
      s.onFinished?.({
        method: req.method ?? "",
        url: req.url ?? "/",
        status: res.writableFinished ? res.statusCode : 0,
        seconds,
        context,
      });
    } catch {
      // The log and the metrics never break a request.
    }
  });
  return context;
}

/** How many requests are being answered now. */
export function requestsInFlight(): number {
  return state().inFlight.size;
}

/** Sets what is called for every request that ended (the request log and the metrics). */
export function onRequestFinished(fn: (r: FinishedRequest) => void): void {
  state().onFinished = fn;
}

/**
 * Stops taking connections on every server of this process and waits (up to `timeoutMs`) for the answers
 * in flight. From then on every answer says `Connection: close`. Kept-alive connections are not cut while
 * idle (a client may be sending on one at that very moment, and would see it reset): a request that still
 * comes on one is answered (and its connection closed after), and the idle ones are left to the server's
 * keep-alive timeout, which clients know of (Keep-Alive: timeout=N) and stop reusing before. Whatever is
 * left at the deadline is closed. Resolves with how many answers were still in flight then (0: all ended).
 */
export async function closeServers(timeoutMs: number): Promise<number> {
  const s = state();
  s.closing = true;
  for (const res of s.inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
  // net.Server's close: no new connections, without http.Server's closing of the idle ones at once.
  for (const server of s.servers) if (server.listening) net.Server.prototype.close.call(server);
  const deadline = Date.now() + timeoutMs;
  const connections = () =>
    Promise.all([...s.servers].map((server) => new Promise<number>((r) => server.getConnections((err, n) => r(err ? 0 : n))))).then(
      (counts) => counts.reduce((a, b) => a + b, 0),
    );
  while (Date.now() < deadline && (s.inFlight.size || (await connections()))) await new Promise((r) => setTimeout(r, 20));
  for (const server of s.servers) server.closeAllConnections();
  return s.inFlight.size;
}

/** Whether the servers are closing (the process is shutting down). */
export function serversClosing(): boolean {
  return state().closing;
}

/** Called by the server's own shutdown when it takes the signals: the stop below stands down from then on. */
export function takeSignals(): void {
  state().signalsTaken = true;
}

/**
 * Until the server's own shutdown is in place (lib/ops/shutdown.ts, installed by instrumentation.ts once
 * Next has loaded, replacing this), SIGTERM and SIGINT close the servers, finish what they answer and exit:
 * a process told to stop while it starts (Next listens before it has loaded the app) stops cleanly too.
 */
function stopWhileStarting(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.once(signal, () => {
      if (state().signalsTaken) return;
      void closeServers(Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 25_000)).then((left) => process.exit(left ? 1 : 0));
    });
}

// Loaded with `node --import`: install before anything else creates a server. Once per process: Next's
// bundles hold copies of this module of their own, loaded later (after the shutdown took the signals), and
// a copy's stop would exit the process mid-shutdown, before the worker stopped and the last line was written.
if (process.env.QUORUM_PEER_ADDRESS_PRELOAD === "1" && !state().installed) {
  installPeerAddress();
  stopWhileStarting();
}
