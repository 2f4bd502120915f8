// The public application's redirect URIs (the established front end's Login button sends its own origin
// as redirect_uri): PUBLIC_CLIENT_REDIRECT_URIS, else our origin and CORS_ORIGINS, set at every start.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { ensureBootstrapRecords, publicClientRedirectUris } from "@/lib/domain/ensure-bootstrap-records";
import { call } from "@/test/http";
import { createUser } from "@/test/factories";

const saved = { ...process.env };
afterEach(async () => {
  for (const k of ["PUBLIC_CLIENT_REDIRECT_URIS", "CORS_ORIGINS", "PUBLIC_URL"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await ensureBootstrapRecords();
});

describe("public client redirect URIs", () => {
  it.each([
    ["defaults: our origin", {}, ["http://localhost:3000"]],
    [
      "with PUBLIC_URL and CORS_ORIGINS",
      { PUBLIC_URL: "https://quorum.example/", CORS_ORIGINS: "https://app.example, http://localhost:3735/x" },
      ["https://quorum.example", "https://app.example", "http://localhost:3735"],
    ],
    [
      "listed",
      { PUBLIC_CLIENT_REDIRECT_URIS: "https://fe.example/, http://localhost:3735 https://fe.example/" },
      ["https://fe.example/", "http://localhost:3735"],
    ],
  ])("%s", (_why, vars: Record<string, string>, uris) => {
    expect(
      publicClientRedirectUris({
        ...env(),
        PORT: 3000,
        PUBLIC_URL: undefined,
        CORS_ORIGINS: undefined,
        PUBLIC_CLIENT_REDIRECT_URIS: undefined,
        ...vars,
      } as ReturnType<typeof env>),
    ).toEqual(uris);
  });

  it.each(["javascript:alert(1)", "https://fe.example/#frag", "not a uri"])("refuses %j", (uri) => {
    expect(() => publicClientRedirectUris({ ...env(), PUBLIC_CLIENT_REDIRECT_URIS: uri })).toThrow(/PUBLIC_CLIENT_REDIRECT_URIS/);
  });

  it("applied at start: a front end's origin gets the token back in the fragment; another origin and a prefix are refused", async () => {
    process.env.PUBLIC_CLIENT_REDIRECT_URIS = "http://localhost:3735, https://fe.example/app";
    await ensureBootstrapRecords();
    const app = await db().oAuthApplication.findUniqueOrThrow({ where: { clientId: env().PUBLIC_CLIENT_ID } });
    expect(app.redirectUris).toEqual(["http://localhost:3735", "https://fe.example/app"]);
    const user = await createUser();
    const get = await call("GET", "/users/sign_in", { accept: "application/json" });
    let cookie = get.headers.get("set-cookie")!.split(";")[0];
    const signIn = await call("POST", "/users/sign_in", {
      accept: "application/json",
      headers: { cookie },
      body: { authenticity_token: get.headers.get("x-csrf-token"), user: { login: user.login, password: user.password } },
    });
    cookie = signIn.headers.get("set-cookie")!.split(";")[0];
    const authorize = (redirect: string) =>
      call("GET", `/oauth/authorize?response_type=token&client_id=${app.clientId}&redirect_uri=${encodeURIComponent(redirect)}`, {
        accept: "application/json",
        headers: { cookie },
      });
    for (const ok of ["http://localhost:3735", "http://localhost:3735/", "https://fe.example/app"]) {
      const res = await authorize(ok);
      expect(res.status, ok).toBe(302);
      const location = new URL(res.headers.get("location")!);
      expect(new URLSearchParams(location.hash.slice(1)).get("access_token"), ok).toBeTruthy();
    }
    for (const bad of [
      "http://localhost:3736",
      "https://fe.example/app/../evil",
      "https://fe.example/application",
      "https://evil.example/?http://localhost:3735",
    ]) {
      const res = await authorize(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toBe("invalid_redirect_uri");
    }
  });
});
