// The established front end signs volunteers in from its own site with the npm panoptes-client, unmodified,
// bundled for the browser as a front end bundles it and served from another site (127.0.0.1, while the
// API is at localhost):
// - the Login button's implicit grant (lib-classifier's dev app, the project app's "Sign in with Zooniverse"):
//   oauth.signIn → our sign-in page → back at the front end with the token in the fragment → oauth.init
//   keeps it and /me names the volunteer;
// - the project app's own sign-in form: auth.signIn (CSRF token, then the session cookie, from another
//   site) → a bearer token from that session.
// The browser context is Playwright's incognito-like one, which blocks third-party cookies: the session
// cookie must be one the browser keeps for the front end's site (lib/auth/session.ts).
import http from "node:http";
import { build } from "esbuild";
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL, E2E_FRONT_END_ORIGIN, E2E_FRONT_END_PORT, PUBLIC_CLIENT_ID } from "../env";
import { newUser, registerUser } from "../support";

let frontEnd: http.Server;

declare global {
  interface Window {
    panoptes: {
      oauth: {
        init(appId: string): Promise<{ access_token: string } | null>;
        signIn(redirectUri: string): Promise<unknown>;
        checkCurrent(): Promise<{ id: string; login: string } | null>;
      };
      auth: {
        signIn(credentials: { login: string; password: string }): Promise<{ id: string; login: string }>;
        checkBearerToken(): Promise<string | null>;
      };
    };
  }
}

test.beforeAll(async () => {
  // panoptes-client reads its hosts and application id from process.env when the bundle is built (the
  // front ends pass them in the same way: webpack's EnvironmentPlugin, Next's `env`).
  const bundle = await build({
    stdin: {
      contents: `import oauth from "panoptes-client/lib/oauth"; import auth from "panoptes-client/lib/auth"; window.panoptes = { oauth, auth };`,
      resolveDir: process.cwd(),
    },
    bundle: true,
    write: false,
    platform: "browser",
    format: "iife",
    logLevel: "silent",
    // Node's url module, which the client's normalizeurl asks for, is the npm `url` package in a browser
    // bundle (as in the front ends' builds).
    define: {
      "process.env": JSON.stringify({
        NODE_ENV: "production",
        PANOPTES_API_HOST: E2E_BASE_URL,
        OAUTH_HOST: E2E_BASE_URL,
        PANOPTES_API_APPLICATION: PUBLIC_CLIENT_ID,
      }),
      global: "window",
    },
  });
  const script = bundle.outputFiles[0].text;
  frontEnd = http.createServer((req, res) => {
    if (req.url === "/bundle.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(script);
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><title>Front end</title><script src="/bundle.js"></script><p>Front end</p>`);
  });
  await new Promise<void>((resolve) => frontEnd.listen(E2E_FRONT_END_PORT, "127.0.0.1", resolve));
});
test.afterAll(() => new Promise<void>((resolve) => frontEnd.close(() => resolve())));

test("the Login button's implicit grant: our sign-in page, back at the front end with the token, /me names the volunteer", async ({
  page,
  request,
}) => {
  const user = newUser("fe_login");
  await registerUser(request, user);
  await page.goto(`${E2E_FRONT_END_ORIGIN}/classify`);
  expect(await page.evaluate((appId) => window.panoptes.oauth.init(appId), PUBLIC_CLIENT_ID)).toBeNull();

  // signIn redirects the whole page to GET /oauth/authorize?response_type=token&client_id=…&redirect_uri=<origin>.
  await page.evaluate((origin) => void window.panoptes.oauth.signIn(origin), E2E_FRONT_END_ORIGIN);
  await page.waitForURL(`${E2E_BASE_URL}/sign-in**`);
  await page.getByLabel("Login or email", { exact: true }).fill(user.login);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  const back = page.waitForURL((url) => url.origin === E2E_FRONT_END_ORIGIN && url.hash.includes("access_token="));
  await page.getByRole("button", { name: "Sign in" }).click();
  await back;
  const fragment = new URLSearchParams(new URL(page.url()).hash.slice(1));
  expect(fragment.get("token_type")).toBe("Bearer");
  expect(Number(fragment.get("expires_in"))).toBeGreaterThan(0);

  // init keeps the token from the fragment, then goes to the page signIn was given.
  const returned = page.waitForURL((url) => url.origin === E2E_FRONT_END_ORIGIN && !url.hash.includes("access_token="));
  await page.evaluate((appId) => void window.panoptes.oauth.init(appId), PUBLIC_CLIENT_ID);
  await returned;
  await page.waitForLoadState("load");
  const current = await page.evaluate(async (appId) => {
    const details = await window.panoptes.oauth.init(appId);
    return { token: details?.access_token ?? null, user: await window.panoptes.oauth.checkCurrent() };
  }, PUBLIC_CLIENT_ID);
  expect(current.token).toBeTruthy();
  expect(current.user).toMatchObject({ login: user.login });
  // The token is one the front end can read: RS512 (by default), the volunteer under `data`.
  const payload = JSON.parse(Buffer.from(current.token!.split(".")[1], "base64url").toString());
  expect(payload.data).toMatchObject({ login: user.login, id: Number(current.user!.id) });
});

test("the project app's sign-in form from another site: CSRF token and session cookie, then a bearer token from the session", async ({
  page,
  request,
}) => {
  const user = newUser("fe_form");
  await registerUser(request, user);
  await page.goto(`${E2E_FRONT_END_ORIGIN}/projects/someone/something`);
  const signedIn = await page.evaluate(
    async ({ login, password }) => {
      const u = await window.panoptes.auth.signIn({ login, password });
      const token = await window.panoptes.auth.checkBearerToken();
      return { login: u.login, token };
    },
    { login: user.login, password: user.password },
  );
  expect(signedIn.login).toBe(user.login);
  expect(signedIn.token).toBeTruthy();
  const me = await request.get(`${E2E_BASE_URL}/api/me`, {
    headers: { Accept: "application/vnd.api+json; version=1", Authorization: `Bearer ${signedIn.token}` },
  });
  expect((await me.json()).users[0].login).toBe(user.login);
  // The browser kept the session cookie for the front end's site only.
  const cookie = (await page.context().cookies(E2E_BASE_URL)).find((c) => c.name === "quorum_session");
  expect(cookie).toMatchObject({ sameSite: "None", secure: true });
});
