import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { describeRefusal, normalHost, outboundPolicy, refusalOf, type OutboundPolicy } from "./outbound-policy";

// The one way the server sends a request to a URL it was given (lib/net/outbound-policy.ts says who may be
// reached). Each hop: the host is resolved, every address is checked, and the connection goes to the
// addresses that were checked (a pinned `lookup`, so a second DNS answer cannot swap in another address);
// redirects are followed by hand, each one checked again. The answer is capped in size and the whole
// exchange in time. Errors say what was refused, or the network error; never anything of the body.

export type OutboundErrorKind = "invalid-url" | "refused" | "redirect-refused" | "too-many-redirects" | "too-large" | "timeout" | "network";

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Every address of a host name (tests inject one to stand in for DNS). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface OutboundOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: Buffer;
  /** Largest answer body read (default 10 MiB). */
  maxBytes?: number;
  /** Deadline for everything: resolving, connecting, every redirect and the whole body (default 30 s). */
  timeoutMs?: number;
  /** Redirects followed (default 5); with 0 a redirect is answered as it is, like any other status. */
  maxRedirects?: number;
  /** Schemes allowed, for the URL and every redirect (default http: and https:). */
  protocols?: readonly string[];
  /** Extra trusted CA certificates (PEM), for services with a private CA. */
  ca?: string;
  policy?: OutboundPolicy;
  resolve?: Resolver;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true });

// Kept-alive connections per policy: a pooled socket was connected to an address checked under the
// same policy, so reusing it never reaches what the current policy refuses.
const agents = new WeakMap<OutboundPolicy, { http: http.Agent; https: https.Agent }>();
function agentsFor(policy: OutboundPolicy) {
  let pair = agents.get(policy);
  if (!pair) {
    const options = { keepAlive: true, timeout: 5000, scheduling: "lifo" as const };
    pair = { http: new http.Agent(options), https: new https.Agent(options) };
    agents.set(policy, pair);
  }
  return pair;
}

function parseUrl(url: string | URL, protocols: readonly string[], redirected: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError(
      redirected ? "redirect-refused" : "invalid-url",
      redirected ? "redirect to an invalid URL refused" : "not a URL",
    );
  }
  if (!protocols.includes(parsed.protocol)) {
    const scheme = parsed.protocol.replace(/:$/, "");
    throw new OutboundError(
      redirected ? "redirect-refused" : "invalid-url",
      redirected
        ? `redirect to ${scheme} refused`
        : `${scheme} URLs are not allowed (${protocols.map((p) => p.replace(/:$/, "")).join(" or ")} only)`,
    );
  }
  return parsed;
}

/** Rejects when the signal aborts, so a DNS lookup (which takes no signal) cannot outlast the deadline. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Resolves the URL's host and checks every address; the addresses to connect to. */
async function admit(
  url: URL,
  redirected: boolean,
  policy: OutboundPolicy,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const host = normalHost(url.hostname);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  // A metadata host name is refused before it is looked up.
  const early = refusalOf(policy, { host, port, addresses: [] });
  if (early) throw new OutboundError(redirected ? "redirect-refused" : "refused", describeRefusal(early, redirected));
  let addresses: ResolvedAddress[];
  const family = net.isIP(host);
  if (family) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await raceAbort(resolve(host), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new OutboundError("network", redirected ? "the redirect's host could not be resolved" : `could not resolve host ${host}`);
    }
    if (!addresses.length) throw new OutboundError("network", `could not resolve host ${host}`);
  }
  const refusal = refusalOf(policy, { host, port, addresses: addresses.map((a) => a.address) });
  if (refusal) throw new OutboundError(redirected ? "redirect-refused" : "refused", describeRefusal(refusal, redirected));
  return addresses;
}

/** A `lookup` that answers the addresses already checked, instead of asking DNS again. */
function pinnedLookup(addresses: ResolvedAddress[]): net.LookupFunction {
  return (_host, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = wanted.length ? wanted : addresses;
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  };
}

/** Network errors in words of our own or Node's (never bytes from the peer: an HTTP parse error is named, not quoted). */
function networkError(err: unknown, url: URL): OutboundError {
  const e = err as NodeJS.ErrnoException;
  const where = url.host;
  if (typeof e.code === "string" && e.code.startsWith("HPE_"))
    return new OutboundError("network", `${where} did not answer valid HTTP (${e.code})`);
  const message = (e.message ?? String(err)).slice(0, 200);
  return new OutboundError("network", `could not reach ${where}: ${message}`);
}

interface Hop {
  url: URL;
  method: "GET" | "POST";
  body: Buffer | undefined;
}

function send(
  hop: Hop,
  addresses: ResolvedAddress[],
  opts: OutboundOptions,
  policy: OutboundPolicy,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const secure = hop.url.protocol === "https:";
  const headers: Record<string, string | number> = { ...opts.headers };
  if (hop.body) headers["content-length"] = hop.body.length;
  else for (const h of Object.keys(headers)) if (/^content-(type|length)$/i.test(h)) delete headers[h];
  const options: https.RequestOptions = {
    protocol: hop.url.protocol,
    hostname: normalHost(hop.url.hostname),
    port: hop.url.port || undefined,
    path: `${hop.url.pathname}${hop.url.search}`,
    method: hop.method,
    headers,
    auth: hop.url.username ? `${decodeURIComponent(hop.url.username)}:${decodeURIComponent(hop.url.password)}` : undefined,
    lookup: pinnedLookup(addresses),
    agent: secure ? agentsFor(policy).https : agentsFor(policy).http,
    signal,
    ...(secure && opts.ca ? { ca: opts.ca } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(options, resolve);
    req.on("error", reject);
    req.end(hop.body);
  });
}

async function readCapped(res: http.IncomingMessage, maxBytes: number, url: URL): Promise<Buffer> {
  const tooLarge = () => new OutboundError("too-large", `${url.host} answered with more than ${maxBytes} bytes`);
  if (Number(res.headers["content-length"]) > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The next hop of a redirect: 303 (and 301/302 after a POST, as browsers do) become a GET without body. */
function redirectHop(hop: Hop, status: number, location: string, protocols: readonly string[]): Hop {
  let target: URL;
  try {
    target = new URL(location, hop.url);
  } catch {
    throw new OutboundError("redirect-refused", "redirect to an invalid URL refused");
  }
  const url = parseUrl(target, protocols, true);
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === "POST");
  return toGet ? { url, method: "GET", body: undefined } : { ...hop, url };
}

/** Sends the request under the policy; resolves with the final answer, whatever its status. */
export async function outboundFetch(url: string | URL, opts: OutboundOptions = {}): Promise<OutboundResponse> {
  const protocols = opts.protocols ?? ["http:", "https:"];
  const policy = opts.policy ?? outboundPolicy();
  const resolve = opts.resolve ?? systemResolver;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new OutboundError("timeout", `no complete answer within ${timeoutMs} ms`)), timeoutMs);
  const signal = deadline.signal;
  let hop: Hop = { url: parseUrl(url, protocols, false), method: opts.method ?? "GET", body: opts.body };
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await admit(hop.url, redirects > 0, policy, resolve, signal);
      let res: http.IncomingMessage;
      try {
        res = await send(hop, addresses, opts, policy, signal);
      } catch (err) {
        throw signal.aborted ? signal.reason : err instanceof OutboundError ? err : networkError(err, hop.url);
      }
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location && maxRedirects > 0) {
        res.destroy();
        if (redirects >= maxRedirects) throw new OutboundError("too-many-redirects", `more than ${maxRedirects} redirects`);
        hop = redirectHop(hop, res.statusCode!, location, protocols);
        continue;
      }
      try {
        const body = await readCapped(res, opts.maxBytes ?? DEFAULT_MAX_BYTES, hop.url);
        return { status: res.statusCode ?? 0, headers: res.headers, body, url: hop.url.href };
      } catch (err) {
        throw signal.aborted ? signal.reason : err instanceof OutboundError ? err : networkError(err, hop.url);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
