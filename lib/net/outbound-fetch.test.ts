import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OutboundError, outboundFetch, type OutboundOptions, type Resolver } from "./outbound-fetch";
import { parseAllowList, type OutboundPolicy } from "./outbound-policy";

// The guard against real local servers: what it refuses before connecting, redirects checked hop by hop,
// the connection pinned to the address checked, size and time caps, and errors that quote nothing fetched.

const SECRET = "root:x:0:0:SECRET-FIRST-LINE";

interface Local {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function listen(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Local> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url} host=${req.headers.host}`);
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let a: Local; // the server tests allow
let b: Local; // another local server nobody allowed
let garbage: net.Server; // answers something that is not HTTP
let garbagePort = 0;

beforeAll(async () => {
  b = await listen((_req, res) => res.end(SECRET));
  a = await listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const to = url.searchParams.get("to");
    if (url.pathname === "/ok") return res.end("fine");
    if (url.pathname === "/secret404") return res.writeHead(404, { "content-type": "text/plain" }).end(SECRET);
    if (url.pathname === "/redirect")
      return res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: to ?? "/ok" }).end(SECRET);
    if (url.pathname === "/loop") return res.writeHead(302, { location: "/loop" }).end();
    if (url.pathname === "/echo") {
      let body = "";
      req.on("data", (c) => (body += c));
      return req.on("end", () => res.end(`${req.method} ${body}`));
    }
    if (url.pathname === "/big") return res.writeHead(200, { "content-length": 5000 }).end("x".repeat(5000));
    if (url.pathname === "/big-chunked") {
      res.writeHead(200);
      for (let i = 0; i < 5; i++) res.write("y".repeat(1000));
      return res.end();
    }
    if (url.pathname === "/slow") return void setTimeout(() => res.end("late"), 2000).unref();
    res.writeHead(404).end();
  });
  // Reads what comes (or the client's close would never be seen, and close() would wait for it).
  garbage = net.createServer((socket) => socket.resume().end(`${SECRET}\r\n\r\n`));
  await new Promise<void>((r) => garbage.listen(0, "127.0.0.1", r));
  garbagePort = (garbage.address() as AddressInfo).port;
});
afterAll(async () => {
  await a.close();
  await b.close();
  await new Promise((r) => garbage.close(r));
});
afterEach(() => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  delete process.env.OUTBOUND_ALLOW_HOSTS;
});

const onlyA = (): OutboundPolicy => ({ allowPrivate: false, ...parseAllowList(`127.0.0.1:${a.port}`) });

/** The error outboundFetch rejects with (fails the test when it resolves). */
async function failure(url: string, opts: OutboundOptions = {}): Promise<OutboundError> {
  const err = await outboundFetch(url, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  expect((err as Error).message).not.toContain("SECRET");
  return err as OutboundError;
}

type RefusalCase = [name: string, url: () => string, opts: () => OutboundOptions, kind: OutboundError["kind"], message: string];

describe("outboundFetch refuses before connecting", () => {
  it.each<RefusalCase>([
    ["loopback by default", () => `http://127.0.0.1:${b.port}/`, () => ({}), "refused", `address 127.0.0.1 is not allowed (loopback)`],
    [
      "localhost by default",
      () => `http://localhost:${b.port}/`,
      () => ({}),
      "refused",
      "host localhost resolves to a loopback address, which is not allowed",
    ],
    ["IPv6 loopback", () => `http://[::1]:${b.port}/`, () => ({}), "refused", "address ::1 is not allowed (loopback)"],
    [
      "IPv4-mapped loopback",
      () => `http://[::ffff:127.0.0.1]:${b.port}/`,
      () => ({}),
      "refused",
      "address ::ffff:7f00:1 is not allowed (loopback)",
    ],
    ["a shorthand loopback", () => `http://127.1:${b.port}/`, () => ({}), "refused", "address 127.0.0.1 is not allowed (loopback)"],
    ["a decimal loopback", () => `http://2130706433:${b.port}/`, () => ({}), "refused", "address 127.0.0.1 is not allowed (loopback)"],
    ["unspecified", () => `http://0.0.0.0:${b.port}/`, () => ({}), "refused", "address 0.0.0.0 is not allowed (unspecified)"],
    [
      "the metadata address",
      () => "http://169.254.169.254/latest/meta-data/",
      () => ({}),
      "refused",
      "address 169.254.169.254 is not allowed (link-local)",
    ],
    [
      "a metadata host",
      () => "http://metadata.google.internal/computeMetadata/v1/",
      () => ({}),
      "refused",
      "host metadata.google.internal is not allowed (cloud metadata service)",
    ],
    [
      "another port than the allowed one",
      () => `http://127.0.0.1:${b.port}/`,
      () => ({ policy: onlyA() }),
      "refused",
      "address 127.0.0.1 is not allowed (loopback)",
    ],
    ["file URLs", () => "file:///etc/passwd", () => ({}), "invalid-url", "file URLs are not allowed (http or https only)"],
    [
      "plain http where only https is",
      () => `http://127.0.0.1:${a.port}/ok`,
      () => ({ policy: onlyA(), protocols: ["https:"] }),
      "invalid-url",
      "http URLs are not allowed (https only)",
    ],
  ])("%s", async (_name, url, opts, kind, message) => {
    const before = b.hits.length;
    const err = await failure(url(), opts());
    expect([err.kind, err.message]).toEqual([kind, message]);
    expect(b.hits.length).toBe(before);
  });

  it("a public-looking name that resolves to loopback", async () => {
    const resolve: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const err = await failure(`http://files.example.org:${b.port}/`, { resolve });
    expect(err.message).toBe("host files.example.org resolves to a loopback address, which is not allowed");
    expect(b.hits).toEqual([]);
  });

  it("a name with a public and a private address", async () => {
    const resolve: Resolver = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    expect((await failure("http://two.example.org/", { resolve })).message).toBe(
      "host two.example.org resolves to a private address, which is not allowed",
    );
  });

  it("follows the environment: OUTBOUND_ALLOW_PRIVATE=1 reaches loopback", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "1";
    const res = await outboundFetch(`http://localhost:${b.port}/`);
    expect(res.status).toBe(200);
  });
});

describe("outboundFetch where allowed", () => {
  it("connects to the address it checked, asking DNS once", async () => {
    const asked: string[] = [];
    // A name no DNS knows: the connection can only have used the address the guard checked.
    const resolve: Resolver = async (host) => {
      asked.push(host);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const res = await outboundFetch(`http://pinned.invalid:${a.port}/ok`, { policy: onlyA(), resolve });
    expect([res.status, res.body.toString()]).toEqual([200, "fine"]);
    expect(asked).toEqual(["pinned.invalid"]);
    expect(a.hits.at(-1)).toBe(`GET /ok host=pinned.invalid:${a.port}`);
  });

  it("answers any status with its body, for the caller to judge", async () => {
    const res = await outboundFetch(`http://127.0.0.1:${a.port}/secret404`, { policy: onlyA() });
    expect(res.status).toBe(404);
  });

  it("follows a redirect to an allowed address, checking it", async () => {
    const res = await outboundFetch(`http://127.0.0.1:${a.port}/redirect?to=/ok`, { policy: onlyA() });
    expect([res.status, res.body.toString(), res.url]).toEqual([200, "fine", `http://127.0.0.1:${a.port}/ok`]);
  });

  it.each([
    ["to a loopback address nobody allowed", () => `http://127.0.0.1:${b.port}/`, "redirect to a loopback address refused"],
    ["to localhost", () => `http://localhost:${b.port}/`, "redirect to a loopback address refused"],
    ["to a private address", () => "http://10.0.0.1/", "redirect to a private address refused"],
    ["to the metadata address", () => "http://169.254.169.254/latest/meta-data/", "redirect to a link-local address refused"],
    ["to a mapped IPv6 loopback", () => `http://[::ffff:127.0.0.1]:${b.port}/`, "redirect to a loopback address refused"],
    ["to a metadata host", () => "http://metadata.google.internal/", "redirect to a cloud metadata host refused"],
    ["to a file", () => "file:///etc/passwd", "redirect to file refused"],
  ])("refuses a redirect %s", async (_name, to, message) => {
    const before = b.hits.length;
    const err = await failure(`http://127.0.0.1:${a.port}/redirect?to=${encodeURIComponent(to())}`, { policy: onlyA() });
    expect([err.kind, err.message]).toEqual(["redirect-refused", message]);
    expect(b.hits.length).toBe(before);
  });

  it("stops after the redirect limit", async () => {
    const err = await failure(`http://127.0.0.1:${a.port}/loop`, { policy: onlyA(), maxRedirects: 3 });
    expect([err.kind, err.message]).toEqual(["too-many-redirects", "more than 3 redirects"]);
  });

  it("answers a redirect as it is when told not to follow", async () => {
    const res = await outboundFetch(`http://127.0.0.1:${a.port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${b.port}/`)}`, {
      policy: onlyA(),
      maxRedirects: 0,
    });
    expect(res.status).toBe(302);
  });

  it.each([
    [307, "POST payload"],
    [303, "GET "],
  ])("keeps the method and body through a %s as HTTP says", async (status, want) => {
    const res = await outboundFetch(`http://127.0.0.1:${a.port}/redirect?status=${status}&to=/echo`, {
      policy: onlyA(),
      method: "POST",
      body: Buffer.from("payload"),
    });
    expect(res.body.toString()).toBe(want);
  });

  it.each(["/big", "/big-chunked"])("caps the size of %s", async (path) => {
    const err = await failure(`http://127.0.0.1:${a.port}${path}`, { policy: onlyA(), maxBytes: 1000 });
    expect([err.kind, err.message]).toEqual(["too-large", `127.0.0.1:${a.port} answered with more than 1000 bytes`]);
  });

  it("caps the time", async () => {
    const started = Date.now();
    const err = await failure(`http://127.0.0.1:${a.port}/slow`, { policy: onlyA(), timeoutMs: 200 });
    expect([err.kind, err.message]).toEqual(["timeout", "no complete answer within 200 ms"]);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("caps the time of a DNS lookup too", async () => {
    const resolve: Resolver = () => new Promise(() => {});
    expect((await failure("http://hangs.example.org/", { resolve, timeoutMs: 100 })).kind).toBe("timeout");
  });

  it("names an answer that is not HTTP without quoting it", async () => {
    const err = await failure(`http://127.0.0.1:${garbagePort}/`, { policy: { allowPrivate: true, hosts: [], networks: [] } });
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/^127\.0\.0\.1:\d+ did not answer valid HTTP \(HPE_/);
  });
});
