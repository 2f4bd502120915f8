// The edge's address rules (lib/http/peer-address.ts), table by table: what TRUST_PROXY means, whose
// address a request is, and which forwarded headers reach the app.
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress, clientAddressHeader, parseTrustProxy, resolveClientAddress, stampRequest, trustsPeer } from "./peer-address";

describe("TRUST_PROXY", () => {
  it.each([
    [undefined, "none"],
    ["", "none"],
    ["false", "none"],
    ["0", "none"],
    ["1", "hops"],
    ["2", "hops"],
    ["10.0.0.1", "list"],
    ["10.0.0.0/8, 192.168.1.0/24", "list"],
    ["loopback uniquelocal", "list"],
    ["::1, fd00::/8", "list"],
  ])("%j is %s", (value, kind) => expect(parseTrustProxy(value).kind).toBe(kind));

  it.each(["true", "*", "not-an-address", "10.0.0.0/33", "::/129", "10.0.0.0/x", "example.org"])("%j is refused", (value) => {
    expect(() => parseTrustProxy(value)).toThrow(/TRUST_PROXY/);
  });
});

describe("the client's address", () => {
  const cases: [string, string | undefined, string, string | undefined, string][] = [
    // [why, TRUST_PROXY, socket peer, X-Forwarded-For, client]
    ["no proxy: the socket, whatever the client wrote", undefined, "203.0.113.9", "1.2.3.4", "203.0.113.9"],
    ["no proxy, no header", undefined, "203.0.113.9", undefined, "203.0.113.9"],
    ["an IPv4-mapped socket address reads as IPv4", undefined, "::ffff:203.0.113.9", undefined, "203.0.113.9"],
    ["one hop: the right-most forwarded entry", "1", "10.0.0.2", "1.2.3.4, 198.51.100.7", "198.51.100.7"],
    ["one hop: a client's own entries on the left are not believed", "1", "10.0.0.2", "6.6.6.6, 198.51.100.7", "198.51.100.7"],
    ["two hops", "2", "10.0.0.2", "1.2.3.4, 198.51.100.7, 10.0.0.3", "198.51.100.7"],
    ["more hops than entries: the furthest", "3", "10.0.0.2", "198.51.100.7", "198.51.100.7"],
    ["hops, but no header: the socket", "1", "10.0.0.2", undefined, "10.0.0.2"],
    ["listed proxy: walk past trusted entries", "10.0.0.0/8", "10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.3", "198.51.100.7"],
    ["listed proxy, header forged by the client on the left", "10.0.0.0/8", "10.0.0.2", "10.9.9.9, 198.51.100.7", "198.51.100.7"],
    ["a socket not in the list: the socket, header ignored", "10.0.0.0/8", "203.0.113.9", "1.2.3.4", "203.0.113.9"],
    ["all entries trusted: the left-most", "loopback", "127.0.0.1", "127.0.0.5", "127.0.0.5"],
    ["a garbage entry ends the walk at the last good hop", "1", "10.0.0.2", "garbage", "10.0.0.2"],
    ["IPv6 proxies", "fd00::/8", "fd00::1", "2001:db8::7, fd00::2", "2001:db8::7"],
  ];
  it.each(cases)("%s", (_why, trust, peer, xff, client) => expect(resolveClientAddress(parseTrustProxy(trust), peer, xff)).toBe(client));

  it("whether the peer's forwarded headers are kept", () => {
    expect(trustsPeer(parseTrustProxy(undefined), "127.0.0.1")).toBe(false);
    expect(trustsPeer(parseTrustProxy("1"), "203.0.113.9")).toBe(true);
    expect(trustsPeer(parseTrustProxy("10.0.0.0/8"), "10.1.2.3")).toBe(true);
    expect(trustsPeer(parseTrustProxy("10.0.0.0/8"), "::ffff:10.1.2.3")).toBe(true);
    expect(trustsPeer(parseTrustProxy("10.0.0.0/8"), "11.1.2.3")).toBe(false);
  });
});

describe("the edge", () => {
  it("drops forwarded headers from an untrusted peer and hands the app the socket's address in a header no client can write", async () => {
    const forged = {
      "x-forwarded-for": "1.2.3.4",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      "x-forwarded-port": "1",
      "x-real-ip": "1.2.3.4",
      forwarded: "for=1.2.3.4",
    };
    const headers: http.IncomingHttpHeaders = { host: "quorum.test", ...forged };
    stampRequest(headers, "203.0.113.9");
    for (const name of Object.keys(forged)) expect(headers[name], name).toBeUndefined();
    expect(headers.host).toBe("quorum.test");
    const [name, value] = clientAddressHeader("203.0.113.9");
    expect(headers[name]).toBe(value);
    expect(name).toMatch(/^x-quorum-peer-[0-9a-f]{24}$/);
  });

  it("a request that did not pass the edge has no address, whatever headers it carries", () => {
    expect(
      clientAddress(
        new Request("http://quorum.test/", {
          headers: { "x-forwarded-for": "1.2.3.4", "x-real-ip": "1.2.3.4", "x-quorum-peer": "1.2.3.4" },
        }),
      ),
    ).toBeNull();
    expect(clientAddress(new Request("http://quorum.test/", { headers: [clientAddressHeader("198.51.100.1")] }))).toBe("198.51.100.1");
  });
});
