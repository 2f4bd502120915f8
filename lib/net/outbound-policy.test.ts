import { describe, expect, it } from "vitest";
import { describeRefusal, outboundPolicy, parseAllowList, refusalOf, type OutboundPolicy } from "./outbound-policy";

const strict: OutboundPolicy = { allowPrivate: false, hosts: [], networks: [] };
const withPrivate: OutboundPolicy = { ...strict, allowPrivate: true };
const listed = (text: string): OutboundPolicy => ({ allowPrivate: false, ...parseAllowList(text) });

describe("refusalOf", () => {
  // [policy, host, port, addresses, refused message or null]
  const cases: [string, OutboundPolicy, string, number, string[], string | null][] = [
    ["a public address", strict, "example.org", 443, ["93.184.215.14"], null],
    ["a public IPv6 address", strict, "example.org", 443, ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"], null],
    ["a loopback literal", strict, "127.0.0.1", 80, ["127.0.0.1"], "address 127.0.0.1 is not allowed (loopback)"],
    [
      "a name resolving to loopback",
      strict,
      "innocent.example.org",
      80,
      ["127.0.0.1"],
      "host innocent.example.org resolves to a loopback address, which is not allowed",
    ],
    [
      "any one bad address of several",
      strict,
      "mixed.example.org",
      80,
      ["8.8.8.8", "10.0.0.1"],
      "host mixed.example.org resolves to a private address, which is not allowed",
    ],
    ["the metadata address", strict, "169.254.169.254", 80, ["169.254.169.254"], "address 169.254.169.254 is not allowed (link-local)"],
    [
      "a metadata host name",
      strict,
      "metadata.google.internal",
      80,
      ["8.8.8.8"],
      "host metadata.google.internal is not allowed (cloud metadata service)",
    ],
    [
      "a metadata host name with a trailing dot",
      strict,
      "Metadata.Google.Internal.",
      80,
      ["8.8.8.8"],
      "host metadata.google.internal is not allowed (cloud metadata service)",
    ],
    ["an IPv4-mapped loopback", strict, "::ffff:127.0.0.1", 80, ["::ffff:127.0.0.1"], "address ::ffff:127.0.0.1 is not allowed (loopback)"],
    ["unspecified", strict, "0.0.0.0", 80, ["0.0.0.0"], "address 0.0.0.0 is not allowed (unspecified)"],
    ["IPv6 unspecified", strict, "::", 80, ["::"], "address :: is not allowed (unspecified)"],
    ["private allowed: loopback", withPrivate, "localhost", 80, ["127.0.0.1", "::1"], null],
    ["private allowed: RFC 1918", withPrivate, "10.1.2.3", 80, ["10.1.2.3"], null],
    ["private allowed: unique local", withPrivate, "fd00::1", 80, ["fd00::1"], null],
    [
      "private allowed: still not link-local",
      withPrivate,
      "169.254.169.254",
      80,
      ["169.254.169.254"],
      "address 169.254.169.254 is not allowed (link-local)",
    ],
    [
      "private allowed: still not a metadata name",
      withPrivate,
      "metadata",
      80,
      ["10.0.0.1"],
      "host metadata is not allowed (cloud metadata service)",
    ],
    ["private allowed: still not multicast", withPrivate, "224.0.0.1", 80, ["224.0.0.1"], "address 224.0.0.1 is not allowed (multicast)"],
    ["private allowed: still not unspecified", withPrivate, "0.0.0.0", 80, ["0.0.0.0"], "address 0.0.0.0 is not allowed (unspecified)"],
    ["a listed host", listed("aggregator.internal"), "aggregator.internal", 8000, ["10.0.0.5"], null],
    ["a listed host, case and dot aside", listed("Aggregator.Internal."), "AGGREGATOR.internal", 8000, ["10.0.0.5"], null],
    ["a listed host and port", listed("localhost:8080"), "localhost", 8080, ["127.0.0.1"], null],
    [
      "a listed host, another port",
      listed("localhost:8080"),
      "localhost",
      8081,
      ["127.0.0.1"],
      "host localhost resolves to a loopback address, which is not allowed",
    ],
    ["a listed address and port", listed("127.0.0.1:8080"), "127.0.0.1", 8080, ["127.0.0.1"], null],
    [
      "a listed address, another port",
      listed("127.0.0.1:8080"),
      "127.0.0.1",
      9090,
      ["127.0.0.1"],
      "address 127.0.0.1 is not allowed (loopback)",
    ],
    ["a listed IPv6 address and port", listed("[::1]:8080"), "::1", 8080, ["::1"], null],
    ["a listed network", listed("10.1.0.0/16"), "svc.internal", 80, ["10.1.200.3"], null],
    [
      "outside a listed network",
      listed("10.1.0.0/16"),
      "svc.internal",
      80,
      ["10.2.0.1"],
      "host svc.internal resolves to a private address, which is not allowed",
    ],
    ["a listed network, mapped address", listed("10.1.0.0/16"), "::ffff:10.1.0.9", 80, ["::ffff:10.1.0.9"], null],
    ["a listed metadata name (the operator's word)", listed("metadata"), "metadata", 80, ["169.254.169.254"], null],
  ];
  it.each(cases)("%s", (_name, policy, host, port, addresses, want) => {
    const refusal = refusalOf(policy, { host, port, addresses });
    expect(refusal && describeRefusal(refusal, false)).toBe(want);
  });

  it("names only the kind of address after a redirect", () => {
    const refusal = refusalOf(strict, { host: "internal.example.org", port: 80, addresses: ["10.9.8.7"] })!;
    expect(describeRefusal(refusal, true)).toBe("redirect to a private address refused");
    expect(describeRefusal(refusalOf(strict, { host: "::", port: 80, addresses: ["::"] })!, true)).toBe(
      "redirect to an unspecified address refused",
    );
  });
});

describe("parseAllowList", () => {
  it("reads host names, addresses, ports and networks", () => {
    expect(parseAllowList(" a.example.org, localhost:3000 10.0.0.0/8\n::1 [fd00::1]:81 192.168.1.1:8443")).toEqual({
      hosts: [
        { host: "a.example.org", port: null },
        { host: "localhost", port: 3000 },
      ],
      networks: [
        { value: 0x0a000000n, family: 4, bits: 8, port: null },
        { value: 1n, family: 6, bits: 128, port: null },
        { value: 0xfd000000000000000000000000000001n, family: 6, bits: 128, port: 81 },
        { value: 0xc0a80101n, family: 4, bits: 32, port: 8443 },
      ],
    });
  });

  it.each(["http://x", "a b/7", "10.0.0.0/33", "host:0", "host:99999", "under_score.example", "/8"])("refuses %s", (entry) => {
    expect(() => parseAllowList(entry)).toThrow(/OUTBOUND_ALLOW_HOSTS/);
  });
});

describe("outboundPolicy", () => {
  it.each([
    [{}, false],
    [{ OUTBOUND_ALLOW_PRIVATE: "1" }, true],
    [{ OUTBOUND_ALLOW_PRIVATE: "true" }, true],
    [{ OUTBOUND_ALLOW_PRIVATE: "0" }, false],
    [{ OUTBOUND_ALLOW_PRIVATE: "" }, false],
  ])("%o allows private: %s", (env, want) => {
    expect(outboundPolicy(env).allowPrivate).toBe(want);
  });

  it("is the same object while the variables stay the same", () => {
    const env = { OUTBOUND_ALLOW_HOSTS: "localhost:1234" };
    expect(outboundPolicy(env)).toBe(outboundPolicy({ ...env }));
    expect(outboundPolicy(env)).not.toBe(outboundPolicy({ OUTBOUND_ALLOW_HOSTS: "localhost:1235" }));
  });
});
