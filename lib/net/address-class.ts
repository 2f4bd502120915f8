import net from "node:net";

// What kind of address an IP is, for the outbound guard (lib/net/outbound-policy.ts). Only `public` may be
// reached by default. The ranges follow IANA's special-purpose address registries; an IPv6 address that
// carries an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is the class of
// the IPv4 address it reaches, so ::ffff:127.0.0.1 is loopback like 127.0.0.1.

export type AddressClass = "public" | "loopback" | "private" | "link-local" | "multicast" | "unspecified" | "broadcast" | "reserved";

type Range = [prefix: bigint, bits: number, cls: AddressClass | "embedded-ipv4"];

const v4 = (text: string, bits: number, cls: AddressClass): Range => [ipv4ToBigInt(text), bits, cls];
const v6 = (text: string, bits: number, cls: Range[2]): Range => [ipv6ToBigInt(text), bits, cls];

// Most specific first: the first range that holds the address decides.
const IPV4_RANGES: Range[] = [
  v4("0.0.0.0", 32, "unspecified"),
  v4("0.0.0.0", 8, "reserved"), // "this network": 0.x.y.z reaches the local host on Linux
  v4("10.0.0.0", 8, "private"),
  v4("100.64.0.0", 10, "private"), // carrier-grade NAT (shared address space), e.g. Alibaba's metadata 100.100.100.200
  v4("127.0.0.0", 8, "loopback"),
  v4("169.254.0.0", 16, "link-local"), // includes the cloud metadata address 169.254.169.254
  v4("172.16.0.0", 12, "private"),
  v4("192.0.0.0", 24, "reserved"), // IETF protocol assignments
  v4("192.0.2.0", 24, "reserved"), // TEST-NET-1
  v4("192.88.99.0", 24, "reserved"), // 6to4 relay anycast (deprecated)
  v4("192.168.0.0", 16, "private"),
  v4("198.18.0.0", 15, "reserved"), // benchmarking
  v4("198.51.100.0", 24, "reserved"), // TEST-NET-2
  v4("203.0.113.0", 24, "reserved"), // TEST-NET-3
  v4("224.0.0.0", 4, "multicast"),
  v4("255.255.255.255", 32, "broadcast"),
  v4("240.0.0.0", 4, "reserved"),
];

const IPV6_RANGES: Range[] = [
  v6("::", 128, "unspecified"),
  v6("::1", 128, "loopback"),
  v6("::ffff:0:0", 96, "embedded-ipv4"), // IPv4-mapped
  v6("64:ff9b::", 96, "embedded-ipv4"), // NAT64 well-known prefix: a gateway forwards to the IPv4 address
  v6("::", 96, "reserved"), // IPv4-compatible (deprecated)
  v6("64:ff9b:1::", 48, "private"), // NAT64 local use
  v6("100::", 64, "reserved"), // discard-only
  v6("2001:db8::", 32, "reserved"), // documentation
  v6("2001::", 23, "reserved"), // IETF protocol assignments, Teredo among them
  v6("2002::", 16, "embedded-ipv4"), // 6to4
  v6("3fff::", 20, "reserved"), // documentation
  v6("5f00::", 16, "reserved"), // segment routing
  v6("fc00::", 7, "private"), // unique local, e.g. AWS's IPv6 metadata fd00:ec2::254
  v6("fe80::", 10, "link-local"),
  v6("fec0::", 10, "private"), // site-local (deprecated)
  v6("ff00::", 8, "multicast"),
];

function ipv4ToBigInt(text: string): bigint {
  return text.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** 128-bit value of an IPv6 address (validated by the caller); a zone id (%eth0) is ignored. */
function ipv6ToBigInt(text: string): bigint {
  let s = text.split("%")[0];
  const dotted = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (dotted) {
    const n = ipv4ToBigInt(dotted[1]);
    s = `${s.slice(0, dotted.index + 1)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = s.includes("::") ? s.split("::") : [s, null];
  const groups = (part: string) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = tail === null ? [] : groups(tail);
  const all = tail === null ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function lookup(value: bigint, width: number, ranges: Range[]): Range[2] {
  for (const [prefix, bits, cls] of ranges) {
    const shift = BigInt(width - bits);
    if (value >> shift === prefix >> shift) return cls;
  }
  return "public";
}

function classifyV4(value: bigint): AddressClass {
  return lookup(value, 32, IPV4_RANGES) as AddressClass;
}

/** The IPv4 address an IPv6 one carries, when it is of a form that reaches one (see the table). */
function embeddedV4(value: bigint): bigint {
  // 6to4 keeps it in bits 16-47 (2002:AABB:CCDD::); the others in the last 32 bits.
  return value >> 112n === 0x2002n ? (value >> 80n) & 0xffffffffn : value & 0xffffffffn;
}

/** The class of an IP address (text as dns.lookup or a URL gives it); null when it is not an IP address. */
export function classifyAddress(address: string): AddressClass | null {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (net.isIPv4(bare)) return classifyV4(ipv4ToBigInt(bare));
  if (!net.isIPv6(bare)) return null;
  const value = ipv6ToBigInt(bare);
  const cls = lookup(value, 128, IPV6_RANGES);
  if (cls === "embedded-ipv4") return classifyV4(embeddedV4(value));
  // Everything outside 2000::/3 (global unicast) that no range above names is unallocated.
  if (cls === "public" && value >> 125n !== 1n) return "reserved";
  return cls;
}

/** The address in the form to compare with allowed networks: an IPv4-mapped IPv6 address as IPv4. */
export function canonicalAddress(address: string): { value: bigint; family: 4 | 6 } | null {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (net.isIPv4(bare)) return { value: ipv4ToBigInt(bare), family: 4 };
  if (!net.isIPv6(bare)) return null;
  const value = ipv6ToBigInt(bare);
  if (value >> 32n === 0xffffn) return { value: value & 0xffffffffn, family: 4 };
  return { value, family: 6 };
}

/** Whether `address` lies in network/bits (both of one family once IPv4-mapped addresses are unwrapped). */
export function inNetwork(address: string, network: { value: bigint; family: 4 | 6; bits: number }): boolean {
  const a = canonicalAddress(address);
  if (!a || a.family !== network.family) return false;
  const shift = BigInt((network.family === 4 ? 32 : 128) - network.bits);
  return a.value >> shift === network.value >> shift;
}
