// Every route under /api, /engine, /counts, /oauth, /users, /uploads answers every method: a handler or a JSON 405 with Allow
// (never Next's empty 405), so clients always get an error body they can show; and OPTIONS, the CORS
// preflight.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { call } from "@/test/http";
// OPTIONS answers CORS preflights on every path (lib/http/cors.ts).
import { APP, HTTP_METHODS as METHODS, routeFiles } from "@/test/route-files";

describe("methods of the API routes", () => {
  const files = ["api", "engine", "counts", "oauth", "users", "uploads", "project_preferences", "unsubscribe"].flatMap((d) =>
    routeFiles(path.join(APP, d)),
  );

  it("covers the routes", () => expect(files.length).toBeGreaterThan(100));

  it("answers a preflight from another origin on any route, and refuses a browser session from it", async () => {
    const pre = await call("OPTIONS", "/api/projects/1", {
      headers: { origin: "https://other.example", "access-control-request-method": "PUT" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("PUT");
    const refused = await call("GET", "/api/me", { headers: { origin: "https://other.example", cookie: "authjs.session-token=x" } });
    expect(refused.status).toBe(403);
    const bearer = await call("GET", "/api/projects", { headers: { origin: "https://other.example" } });
    expect(bearer.headers.get("access-control-allow-origin")).toBe("*");
    expect(bearer.headers.get("access-control-expose-headers")).toContain("ETag");
  });

  it.each(files.map((f) => [path.relative(APP, f)]))("%s exports a handler for every method", async (rel) => {
    const mod = (await import(path.join(APP, rel))) as Record<string, unknown>;
    for (const m of METHODS) expect(typeof mod[m], `${rel} ${m}`).toBe("function");
  });

  it.each([
    ["PATCH", "/api/projects", "GET, POST"],
    ["DELETE", "/api/classifications", "GET, POST"],
    ["POST", "/api/me", "GET"],
    ["PUT", "/counts/classifications", "GET"],
    ["DELETE", "/engine/workflows", "POST"],
    ["GET", "/unsubscribe", "POST"],
    ["DELETE", "/oauth/token", "POST"],
    ["GET", "/users", "POST, PUT"],
  ])("%s %s is a JSON 405 allowing %s", async (method, p, allow) => {
    const res = await call(method, p, { body: method === "GET" || method === "DELETE" ? undefined : {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body.errors[0].message).toMatch(new RegExp(`${method} is not allowed on ${p.replace(/\//g, "\\/")}`));
  });
});
