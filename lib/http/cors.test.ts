import { describe, expect, it } from "vitest";
import { corsDecision } from "./cors";
import { parseOrigins } from "@/lib/env";

const trusted = parseOrigins("https://app.example.org, http://localhost:4000 not-a-url");
const req = (method: string, pathname: string, headers: Record<string, string>) => ({
  method,
  pathname,
  headers: new Headers({ host: "quorum.example.org", ...headers }),
});
const SESSION = { cookie: "theme=dark; authjs.session-token=abc" };

describe("corsDecision", () => {
  const cases: [string, ReturnType<typeof req>, string, Record<string, string>?][] = [
    ["a page path is not an API path", req("GET", "/projects/1", { origin: "https://evil.example" }), "none"],
    ["no Origin (a script, curl)", req("POST", "/api/classifications", SESSION), "none"],
    ["our own origin", req("POST", "/api/classifications", { origin: "https://quorum.example.org", ...SESSION }), "none"],
    [
      "our own origin behind a proxy",
      req("GET", "/api/projects", { origin: "https://public.example", "x-forwarded-host": "public.example" }),
      "none",
    ],
    [
      "preflight from any origin",
      req("OPTIONS", "/api/projects", { origin: "https://other.example" }),
      "preflight",
      { "Access-Control-Allow-Origin": "*" },
    ],
    [
      "preflight from a trusted origin allows credentials",
      req("OPTIONS", "/api/projects", { origin: "https://app.example.org" }),
      "preflight",
      { "Access-Control-Allow-Origin": "https://app.example.org", "Access-Control-Allow-Credentials": "true" },
    ],
    [
      "bearer request from any origin",
      req("POST", "/api/classifications", { origin: "https://other.example", authorization: "Bearer t" }),
      "headers",
      { "Access-Control-Allow-Origin": "*" },
    ],
    [
      "bearer wins over a session cookie",
      req("POST", "/api/classifications", { origin: "https://other.example", authorization: "Bearer t", ...SESSION }),
      "headers",
    ],
    [
      "anonymous request from any origin",
      req("GET", "/counts/classifications", { origin: "https://other.example" }),
      "headers",
      { "Access-Control-Allow-Origin": "*" },
    ],
    [
      "session from an unlisted origin is refused",
      req("POST", "/api/classifications", { origin: "https://other.example", ...SESSION }),
      "refuse",
    ],
    [
      "chunked session cookie from an unlisted origin is refused",
      req("GET", "/api/me", { origin: "https://other.example", cookie: "authjs.session-token.0=a" }),
      "refuse",
    ],
    [
      "secure session cookie from an unlisted origin is refused",
      req("GET", "/engine/workflows/1", { origin: "https://other.example", cookie: "__Secure-authjs.session-token=a" }),
      "refuse",
    ],
    [
      "session from a trusted origin",
      req("POST", "/api/classifications", { origin: "http://localhost:4000", ...SESSION }),
      "headers",
      { "Access-Control-Allow-Origin": "http://localhost:4000", "Access-Control-Allow-Credentials": "true" },
    ],
    ["token endpoint", req("OPTIONS", "/oauth/token", { origin: "https://other.example" }), "preflight"],
    ["sign-in", req("POST", "/users/sign_in", { origin: "https://other.example" }), "headers"],
    [
      "sign-in's CSRF token with a trailing slash (the established front end's)",
      req("GET", "/users/sign_in/", { origin: "https://other.example" }),
      "headers",
    ],
    ["its preflight", req("OPTIONS", "/users/sign_in/", { origin: "https://other.example" }), "preflight"],
    ["token endpoint with a trailing slash", req("OPTIONS", "/oauth/token/", { origin: "https://other.example" }), "preflight"],
    [
      "password change with a session from an unlisted origin",
      req("PUT", "/users", { origin: "https://other.example", cookie: "quorum_session=abc" }),
      "refuse",
    ],
    ["password reset request", req("POST", "/users/password", { origin: "https://other.example" }), "headers"],
    ["a page under /users is not an API path", req("GET", "/users/5/profile", { origin: "https://other.example", ...SESSION }), "none"],
    ["engine", req("GET", "/engine/workflows", { origin: "https://other.example" }), "headers"],
    ["an opaque origin never gets credentials", req("GET", "/api/me", { origin: "null", ...SESSION }), "refuse"],
  ];
  it.each(cases)("%s", (_name, r, kind, headers) => {
    const d = corsDecision(r, trusted);
    expect(d.kind).toBe(kind);
    if (headers && "headers" in d) expect(d.headers).toMatchObject(headers);
    if (d.kind === "preflight") {
      expect(d.headers["Access-Control-Allow-Headers"]).toMatch(/Authorization.*Content-Type.*If-Match.*X-CSRF-Token.*Accept/);
      expect(d.headers["Access-Control-Allow-Methods"]).toContain("DELETE");
    }
    if (d.kind === "headers") expect(d.headers["Access-Control-Expose-Headers"]).toMatch(/ETag, X-CSRF-Token, Location/);
    if (d.kind === "headers" && d.headers["Access-Control-Allow-Origin"] === "*")
      expect(d.headers["Access-Control-Allow-Credentials"]).toBeUndefined();
  });

  it("trusts only well-formed origins, by origin (no paths)", () => {
    expect([...parseOrigins("https://a.example/path, ,http://b.example:8080 junk")]).toEqual([
      "https://a.example",
      "http://b.example:8080",
    ]);
    expect(parseOrigins(undefined).size).toBe(0);
  });

  it("PUBLIC_URL names our own origin too", () => {
    expect(corsDecision(req("GET", "/api/me", { origin: "https://quorum.org", ...SESSION }), trusted, "https://quorum.org/").kind).toBe(
      "none",
    );
  });
});
