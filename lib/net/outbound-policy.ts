import net from "node:net";
import { canonicalAddress, classifyAddress, inNetwork, type AddressClass } from "./address-class";

// Which hosts the server may send requests to at URLs it was given (extract imports, external
// extractors/reducers/effects, the aggregation service). By default only public addresses: a user who
// owns a workflow must not make the server reach its own loopback, the private network or a cloud
// metadata service. The operator widens this with two variables:
//   OUTBOUND_ALLOW_PRIVATE=1   loopback and private ranges (RFC 1918, fc00::/7, 100.64/10) too; link-local
//                              (169.254.169.254), multicast, reserved and metadata hosts stay refused
//   OUTBOUND_ALLOW_HOSTS=...   comma- or space-separated entries, each allowed whatever it resolves to:
//                              a host name or IP (`aggregator.internal`, `10.0.0.5`, `::1`), optionally
//                              with a port (`localhost:8080`, `[::1]:8080`), or a CIDR network (`10.1.0.0/16`)

export interface AllowedHost {
  host: string;
  port: number | null;
}
export interface AllowedNetwork {
  value: bigint;
  family: 4 | 6;
  bits: number;
  port: number | null;
}
export interface OutboundPolicy {
  allowPrivate: boolean;
  hosts: AllowedHost[];
  networks: AllowedNetwork[];
}

/** Names of cloud metadata services, refused by name as well as by their (link-local) addresses. */
const METADATA_HOSTS = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/** Lower case, without brackets and a trailing dot: the form hosts are compared in. */
export function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

function parsePort(text: string | undefined, entry: string): number | null {
  if (text === undefined) return null;
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) throw badEntry(entry);
  return port;
}

const badEntry = (entry: string) =>
  new Error(`OUTBOUND_ALLOW_HOSTS: "${entry}" is not a host name, IP address or CIDR network (optionally with :port)`);

function parseEntry(entry: string): AllowedHost | AllowedNetwork {
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (cidr) {
    const address = canonicalAddress(cidr[1]);
    const bits = Number(cidr[2]);
    if (!address || net.isIP(cidr[1]) === 0 || bits > (address.family === 4 ? 32 : 128)) throw badEntry(entry);
    return { ...address, bits, port: null };
  }
  // [v6]:port, [v6], a bare IPv6 address, or host[:port].
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const [host, portText] = bracketed
    ? [bracketed[1], bracketed[2]]
    : net.isIPv6(entry)
      ? [entry, undefined]
      : (entry.split(/:(?=[^:]*$)/) as [string, string?]);
  const port = parsePort(portText, entry);
  const address = canonicalAddress(host);
  if (address) return { ...address, bits: address.family === 4 ? 32 : 128, port };
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(host)) throw badEntry(entry);
  return { host: normalHost(host), port };
}

/** Parses OUTBOUND_ALLOW_HOSTS; a bad entry throws (a configuration error, not something to guess at). */
export function parseAllowList(text: string): Pick<OutboundPolicy, "hosts" | "networks"> {
  const hosts: AllowedHost[] = [];
  const networks: AllowedNetwork[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const parsed = parseEntry(entry);
    if ("host" in parsed) hosts.push(parsed);
    else networks.push(parsed);
  }
  return { hosts, networks };
}

let cached: { key: string; policy: OutboundPolicy } | null = null;

/** The policy the environment sets; the same object while the variables do not change. */
export function outboundPolicy(env: Record<string, string | undefined> = process.env): OutboundPolicy {
  const key = `${env.OUTBOUND_ALLOW_PRIVATE ?? ""}\n${env.OUTBOUND_ALLOW_HOSTS ?? ""}`;
  if (cached?.key !== key) {
    cached = {
      key,
      policy: {
        allowPrivate: /^(1|true|yes|on)$/i.test(env.OUTBOUND_ALLOW_PRIVATE ?? ""),
        ...parseAllowList(env.OUTBOUND_ALLOW_HOSTS ?? ""),
      },
    };
  }
  return cached.policy;
}

/** A host about to be connected to: its name (or IP literal), port and every address it resolved to. */
export interface Target {
  host: string;
  port: number;
  addresses: string[];
}

/** Why a target was refused: a metadata host name, or the first address the policy does not allow. */
export type Refusal =
  | { host: string; kind: "metadata" }
  | { host: string; kind: "address"; address: string; cls: AddressClass; literal: boolean };

const portMatches = (allowed: number | null, port: number) => allowed === null || allowed === port;

/** null when the policy allows connecting to every address of the target, else why not. */
export function refusalOf(policy: OutboundPolicy, target: Target): Refusal | null {
  const host = normalHost(target.host);
  if (policy.hosts.some((h) => h.host === host && portMatches(h.port, target.port))) return null;
  if (METADATA_HOSTS.has(host)) return { host, kind: "metadata" };
  const literal = net.isIP(host) !== 0;
  for (const address of target.addresses) {
    const cls = classifyAddress(address) ?? "reserved";
    if (cls === "public") continue;
    if (policy.allowPrivate && (cls === "loopback" || cls === "private")) continue;
    if (policy.networks.some((n) => inNetwork(address, n) && portMatches(n.port, target.port))) continue;
    return { host, kind: "address", address, cls, literal };
  }
  return null;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/**
 * The refusal in words. A name's address is not told (that would map the private network for whoever
 * asks); a literal address the caller wrote is. After a redirect, only the kind of address is told.
 */
export function describeRefusal(r: Refusal, redirected: boolean): string {
  if (r.kind === "metadata")
    return redirected ? "redirect to a cloud metadata host refused" : `host ${r.host} is not allowed (cloud metadata service)`;
  if (redirected) return `redirect to ${article(r.cls)} address refused`;
  if (r.literal) return `address ${r.address} is not allowed (${r.cls})`;
  return `host ${r.host} resolves to ${article(r.cls)} address, which is not allowed`;
}
