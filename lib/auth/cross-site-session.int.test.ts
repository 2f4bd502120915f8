// The established front end runs on its own site (the project app at https://local.zooniverse.org:3000
// against an API elsewhere) and signs in with fetches that carry the session cookie. A SameSite=Lax
// cookie never reaches those fetches, so for a trusted (CORS_ORIGINS) origin on another host the cookie
// is SameSite=None; Secure; Partitioned; for our own pages and for origins nobody listed it stays Lax.
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { createUser } from "@/test/factories";
import { cookieJar } from "@/test/cookie-jar";

const FRONT_END = "https://front-end.example:3002";

beforeAll(() => {
  // Read when the first cross-origin request is decided (lib/http/cors.ts), so set before any request.
  process.env.CORS_ORIGINS = FRONT_END;
});

const setCookie = (res: { headers: Headers }) => res.headers.get("set-cookie") ?? "";

describe("the sign-in cookie for a trusted front end on another site", () => {
  it.each([
    ["a trusted origin on another host", { origin: FRONT_END }, /; SameSite=None; Secure; Partitioned;/],
    ["no Origin (same origin, or not a browser)", {}, /; SameSite=Lax;/],
    ["an origin nobody listed", { origin: "https://elsewhere.example" }, /; SameSite=Lax;/],
  ])("GET /users/sign_in from %s", async (_, headers, attributes) => {
    const res = await cookieJar().send("GET", "/users/sign_in/?now=1", undefined, headers);
    expect(res.status).toBe(200);
    expect(setCookie(res)).toMatch(attributes);
  });

  it("the whole flow from the trusted origin keeps SameSite=None: sign-in, token from the session, sign-out", async () => {
    const user = await createUser();
    const b = cookieJar();
    const o = { origin: FRONT_END };
    const csrf = (await b.send("GET", "/users/sign_in/?now=1", undefined, o)).headers.get("x-csrf-token")!;
    const signedIn = await b.send(
      "POST",
      "/users/sign_in",
      { user: { login: user.login, password: user.password } },
      { ...o, "x-csrf-token": csrf },
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("access-control-allow-origin")).toBe(FRONT_END);
    expect(setCookie(signedIn)).toMatch(/; SameSite=None; Secure; Partitioned;/);
    const tok = await b.send("POST", "/oauth/token", { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID }, o);
    expect(tok.status).toBe(200);
    const out = await b.send("DELETE", "/users/sign_out", undefined, { ...o, "x-csrf-token": csrf });
    expect(out.status).toBe(204);
    expect(setCookie(out)).toMatch(/^quorum_session=; .*SameSite=None; Secure; Partitioned; Max-Age=0$/);
  });

  it("the cookie, even so, is refused from a site nobody listed (403 before the route), so it cannot be ridden", async () => {
    const user = await createUser();
    const b = cookieJar();
    const csrf = (await b.send("GET", "/users/sign_in/?now=1", undefined, { origin: FRONT_END })).headers.get("x-csrf-token")!;
    await b.send(
      "POST",
      "/users/sign_in",
      { user: { login: user.login, password: user.password } },
      { origin: FRONT_END, "x-csrf-token": csrf },
    );
    const ridden = await b.send(
      "POST",
      "/oauth/token",
      { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID },
      { origin: "https://evil.example" },
    );
    expect(ridden.status).toBe(403);
    expect(ridden.body.access_token).toBeUndefined();
  });
});
