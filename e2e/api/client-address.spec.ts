// Client addresses over real HTTP against the production server (`npm start`'s path), abuse limits at
// their defaults: the socket's address counts, not what a client writes in X-Forwarded-For or X-Real-IP,
// unless the socket is a proxy named in TRUST_PROXY (here 127.0.0.9). Clients on other loopback addresses
// (127.0.0.2, .3, ...) stand for different machines. Also: a failed password locks the account for the
// address that failed, not for its owner elsewhere; a forged X-Forwarded-Host does not make another
// origin our own for CORS.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../lib/db/embedded";
import { PUBLIC_CLIENT_ID } from "../env";
import { startApp, stopApp, waitUntilUp, type AppProcess } from "../server-process";
import { uniqueName } from "../support";

const PROXY = "127.0.0.9";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from the given local (loopback) address. */
function send(
  base: string,
  from: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = new URL(p, base);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: from,
        agent: false,
        headers: {
          Accept: "application/json",
          ...(data ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
    req.end(data);
  });
}

test.describe("client addresses and lockout", () => {
  test.describe.configure({ timeout: 240_000 });
  let app: AppProcess | null = null;
  let base = "";
  let dataDir = "";

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-address-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = startApp(port, dataDir, { RATE_LIMIT_FACTOR: "1", TRUST_PROXY: PROXY });
    await waitUntilUp(base);
  });

  test.afterAll(async () => {
    await stopApp(app);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function register(from: string) {
    const login = uniqueName("addr")
      .replace(/[^A-Za-z0-9_]/g, "_")
      .slice(0, 40);
    const password = "a good long password";
    const res = await send(base, from, "POST", "/users", { user: { login, email: `${login}@example.org`, password } });
    expect(res.status, res.body).toBe(201);
    return { login, password };
  }

  const grant = (from: string, login: string, password: string, headers: Record<string, string> = {}) =>
    send(base, from, "POST", "/oauth/token", { grant_type: "password", client_id: PUBLIC_CLIENT_ID, login, password }, headers);

  test("a forged X-Forwarded-For buys no new budget: the address that failed is locked, the owner elsewhere is not", async () => {
    const user = await register("127.0.0.20");
    for (let i = 0; i < 10; i++) {
      const forged = { "X-Forwarded-For": `198.51.100.${i}`, "X-Real-IP": `198.51.100.${i}` };
      expect((await grant("127.0.0.2", user.login, "wrong password", forged)).status, `failure ${i + 1}`).toBe(400);
    }
    const locked = await grant("127.0.0.2", user.login, user.password, { "X-Forwarded-For": "203.0.113.250" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    // Wildcards do not reach the account under another lock either.
    expect((await grant("127.0.0.2", `${user.login.slice(0, -1)}_`, user.password)).status).toBe(400);
    // The owner, from another machine, signs in.
    expect((await grant("127.0.0.3", user.login, user.password)).status).toBe(200);
  });

  test("behind the configured proxy, the client is read from X-Forwarded-For; anyone else's header is ignored", async () => {
    const user = await register("127.0.0.21");
    // Through the proxy: ten failures from one client address lock that address only.
    for (let i = 0; i < 10; i++)
      expect((await grant(PROXY, user.login, "wrong password", { "X-Forwarded-For": "203.0.113.66" })).status).toBe(400);
    expect((await grant(PROXY, user.login, user.password, { "X-Forwarded-For": "203.0.113.66" })).status).toBe(429);
    // A client that prepends its own entry is still the address the proxy appended.
    expect((await grant(PROXY, user.login, user.password, { "X-Forwarded-For": "198.51.100.1, 203.0.113.66" })).status).toBe(429);
    expect((await grant(PROXY, user.login, user.password, { "X-Forwarded-For": "203.0.113.67" })).status).toBe(200);
    // Not the proxy: the header names nobody, the socket (which never failed) signs in.
    expect((await grant("127.0.0.4", user.login, user.password, { "X-Forwarded-For": "203.0.113.66" })).status).toBe(200);
  });

  test("a forged X-Forwarded-Host does not make another origin ours for a cookie-carrying request", async () => {
    const res = await send(base, "127.0.0.5", "GET", "/api/me", undefined, {
      Accept: "application/vnd.api+json; version=1",
      Origin: "https://evil.example",
      "X-Forwarded-Host": "evil.example",
      Cookie: "quorum_session=anything",
    });
    expect(res.status).toBe(403);
  });
});
