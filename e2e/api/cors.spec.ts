// Cross-origin use of the API from a page on another origin (a second local port): bearer-token requests
// are allowed from anywhere (reads, and a classification posted after its preflight); a browser session
// (cookie) from an origin not in CORS_ORIGINS is refused, by the browser and by the server.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { ADMIN_LOGIN, ADMIN_PASSWORD, E2E_BASE_URL } from "../env";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, signIn, uniqueName } from "../support";

let other: http.Server;
let otherOrigin: string;

test.beforeAll(async () => {
  other = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Another site</title><p>Another site</p>");
  });
  await new Promise<void>((resolve) => other.listen(0, "localhost", resolve));
  // Same host name, other port: another origin but the same site, so the browser does send our cookies.
  otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

test("a page on another origin reads projects and classifies with a bearer token", async ({ page, request }) => {
  const token = await accessToken(request);
  const project = await createProject(request, token, { display_name: uniqueName("Cors") });
  const w = await classifiableWorkflow(request, token, project.id, 1);
  await page.goto(otherOrigin);

  const read = await page.evaluate(
    async ({ base, id, accept, token }) => {
      const res = await fetch(`${base}/api/projects/${id}`, { headers: { Accept: accept, Authorization: `Bearer ${token}` } });
      return {
        status: res.status,
        etag: res.headers.get("etag"),
        names: (await res.json()).projects.map((p: { display_name: string }) => p.display_name),
      };
    },
    { base: E2E_BASE_URL, id: project.id, accept: API_ACCEPT, token },
  );
  expect(read).toMatchObject({ status: 200, names: [project.display_name] });
  expect(read.etag, "ETag is exposed to other origins").toBeTruthy();

  const posted = await page.evaluate(
    async ({ base, accept, token, project, w }) => {
      const now = new Date().toISOString();
      const res = await fetch(`${base}/api/classifications`, {
        method: "POST",
        headers: {
          Accept: accept,
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
          "Idempotency-Key": crypto.randomUUID(),
        },
        body: JSON.stringify({
          classifications: {
            annotations: [{ task: "T0", value: 1 }],
            metadata: {
              started_at: now,
              finished_at: now,
              user_agent: navigator.userAgent,
              user_language: "en",
              workflow_version: w.version,
            },
            links: { project, workflow: w.workflowId, subjects: w.subjectIds },
          },
        }),
      });
      return { status: res.status, id: (await res.json()).classifications?.[0]?.id as string | undefined };
    },
    { base: E2E_BASE_URL, accept: API_ACCEPT, token, project: project.id, w },
  );
  expect(posted.status).toBe(201);
  const stored = await request.get(`/api/classifications/${posted.id}`, {
    headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` },
  });
  expect(stored.status()).toBe(200);

  // The preflight the browser made, as it sees it.
  const preflight = await request.fetch("/api/classifications", {
    method: "OPTIONS",
    headers: {
      Origin: otherOrigin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
    },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()["access-control-allow-origin"]).toBe("*");
  expect(preflight.headers()["access-control-allow-headers"]).toMatch(/Authorization.*Content-Type.*If-Match.*X-CSRF-Token.*Accept/);
});

test("a browser session is refused from an origin not in CORS_ORIGINS", async ({ page, request }) => {
  await signIn(page, ADMIN_LOGIN, ADMIN_PASSWORD);
  const cookie = (await page.context().cookies(E2E_BASE_URL)).map((c) => `${c.name}=${c.value}`).join("; ");
  expect(cookie).toMatch(/authjs\.session-token/);
  // Our own pages use the session.
  expect((await page.request.get("/api/me", { headers: { Accept: API_ACCEPT } })).status()).toBe(200);

  await page.goto(otherOrigin);
  const fromOther = await page.evaluate(async (base) => {
    try {
      const res = await fetch(`${base}/api/me`, { credentials: "include", headers: { Accept: "application/json" } });
      return `status ${res.status}`;
    } catch (e) {
      return `blocked: ${(e as Error).name}`;
    }
  }, E2E_BASE_URL);
  expect(fromOther).toBe("blocked: TypeError");

  // The server refuses it too (a simple request reaches the server even when the browser hides the answer).
  const refused = await request.post("/api/collections", {
    headers: { Origin: otherOrigin, Cookie: cookie, Accept: API_ACCEPT, "Content-Type": "application/json" },
    data: { collections: { display_name: uniqueName("csrf") } },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).errors[0].message).toMatch(/not accepted from/);
  // The same session from our own origin is accepted.
  const own = await request.get("/api/me", { headers: { Origin: E2E_BASE_URL, Cookie: cookie, Accept: API_ACCEPT } });
  expect(own.status()).toBe(200);
});

test("paths with a trailing slash are answered as they are, from another origin too (no 308 without CORS headers)", async ({
  page,
  request,
}) => {
  const token = await accessToken(request);
  const me = (await (await request.get("/api/me", { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } })).json()).users[0]
    .id;
  const paths = [
    "/users/sign_in/?now=1",
    `/counts/classifications/users/${me}/?period=day`,
    "/api/projects/?page_size=1",
    "/counts/classifications/?period=year",
  ];
  for (const p of paths) {
    const res = await request.get(p, {
      headers: { Accept: p.startsWith("/api") ? API_ACCEPT : "application/json", Authorization: `Bearer ${token}` },
      maxRedirects: 0,
    });
    expect(res.status(), p).toBe(200);
  }
  await page.goto(otherOrigin);
  const seen = await page.evaluate(
    async ([base, list, bearer]) =>
      Promise.all(
        (list as string[]).map(async (p) => {
          try {
            const res = await fetch(`${base}${p}`, {
              headers: {
                Accept: p.startsWith("/api") ? "application/vnd.api+json; version=1" : "application/json",
                Authorization: `Bearer ${bearer}`,
              },
            });
            return `${p} ${res.status}`;
          } catch (e) {
            return `${p} blocked: ${(e as Error).name}`;
          }
        }),
      ),
    [E2E_BASE_URL, paths, token] as const,
  );
  expect(seen).toEqual(paths.map((p) => `${p} 200`));
});
