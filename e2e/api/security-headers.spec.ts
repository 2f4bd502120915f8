// Security headers as a browser gets them from the production server: pages, API answers and errors carry
// the Content-Security-Policy (no framing by other sites), nosniff, a trimmed referrer; stored files their
// own sandboxing policy. Pages allow scripts by a nonce of their own request (proxy.ts), never inline ones
// by default; API and machine answers (which the proxy never sees) allow no inline script at all. The rest
// of the end-to-end suite runs under the same policy (a page it broke would fail there).
import { expect, test, type APIResponse } from "@playwright/test";
import { ADMIN_LOGIN, E2E_BASE_URL } from "../env";
import { API_ACCEPT, accessToken, classifiableWorkflow, createProject, newUser, registerUser, uniqueName } from "../support";

const scriptSrc = (h: Record<string, string>) =>
  h["content-security-policy"]
    ?.split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src")) ?? "";

const common = (h: Record<string, string>) => {
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(h["permissions-policy"]).toBe("camera=(), microphone=(), geolocation=(), payment=()");
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["content-security-policy"]).toContain("object-src 'none'");
  expect(scriptSrc(h)).not.toContain("'unsafe-inline'");
  expect(scriptSrc(h)).not.toContain("'unsafe-eval'"); // no eval in production
};

/** A page's policy: scripts by this request's nonce only ('strict-dynamic' for the chunks they load). Its nonce. */
const pagePolicy = (h: Record<string, string>): string => {
  common(h);
  const match = /^script-src 'self' 'nonce-([A-Za-z0-9+/]{22}==)' 'strict-dynamic'$/.exec(scriptSrc(h));
  expect(match, scriptSrc(h)).not.toBeNull();
  return match![1];
};

/** An answer the proxy did not touch: the policy of next.config.js, no nonce and no inline script. */
const machinePolicy = (h: Record<string, string>) => {
  common(h);
  expect(scriptSrc(h)).toBe("script-src 'self'");
};

test("pages, API answers and errors carry the security headers", async ({ request }) => {
  for (const [path, status] of [
    ["/", 200],
    ["/sign-in", 200],
    ["/projects/999999999", 404],
    ["/nowhere", 404],
  ] as const) {
    const res = await request.get(path, { headers: { Accept: "text/html" } });
    expect(res.status(), path).toBe(status);
    pagePolicy(res.headers());
  }
  for (const [path, status] of [
    ["/api/projects", 200],
    ["/api/nowhere", 404],
    ["/counts/classifications", 200],
  ] as const) {
    const res = await request.get(path, { headers: { Accept: path.startsWith("/api") ? API_ACCEPT : "application/json" } });
    expect(res.status(), path).toBe(status);
    machinePolicy(res.headers());
  }
});

/** The nonces on a page's script tags (every one must carry one) and its inline scripts' count. */
async function scriptNonces(res: APIResponse) {
  const tags = [...(await res.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(tags.length).toBeGreaterThan(0);
  return {
    nonces: new Set(tags.map((t) => /\snonce="([^"]*)"/.exec(t)?.[1] ?? "(none)")),
    inline: tags.filter((t) => !/\ssrc=/.test(t)).length,
  };
}

test("every page request has a nonce of its own, and Next's scripts carry it", async ({ request }) => {
  const token = await accessToken(request);
  const project = await createProject(request, token, { display_name: uniqueName("CSP") });
  await classifiableWorkflow(request, token, project.id, 1);
  // A volunteer's profile (/users/<login>) is a page, under /users beside the account routes.
  for (const path of ["/", `/projects/${project.id}`, `/projects/${project.id}/classify`, "/sign-in", `/users/${ADMIN_LOGIN}`]) {
    const first = await request.get(path, { headers: { Accept: "text/html" } });
    const second = await request.get(path, { headers: { Accept: "text/html" } });
    const [a, b] = [pagePolicy(first.headers()), pagePolicy(second.headers())];
    expect(a, path).not.toBe(b);
    for (const [res, nonce] of [
      [first, a],
      [second, b],
    ] as const) {
      const { nonces, inline } = await scriptNonces(res);
      expect([...nonces], path).toEqual([nonce]);
      expect(inline, path).toBeGreaterThan(0); // Next's inline hydration data run by the nonce alone
    }
  }
  // A policy the client sends cannot choose the nonce: the proxy replaces it.
  const chosen = "Y2hvc2VuYnl0aGVjbGllbnQ=";
  const res = await request.get("/", { headers: { Accept: "text/html", "Content-Security-Policy": `script-src 'nonce-${chosen}'` } });
  const nonce = pagePolicy(res.headers());
  expect(nonce).not.toBe(chosen);
  expect([...(await scriptNonces(res)).nonces]).toEqual([nonce]);
});

test("API, machine routes and static files are not touched by the proxy", async ({ request }) => {
  const chunk = /<script[^>]*\ssrc="(\/_next\/static\/[^"]+\.js)"/.exec(await (await request.get("/")).text())?.[1];
  expect(chunk).toBeTruthy();
  const answers: [string, Record<string, string>, number][] = [
    ["/api/projects", { Accept: API_ACCEPT }, 200],
    ["/api/nowhere", { Accept: API_ACCEPT }, 404],
    ["/oauth/token", { Accept: "application/json" }, 405],
    ["/users/sign_in", { Accept: "application/json" }, 200],
    ["/users/sign_in", { Accept: "text/html" }, 303],
    ["/users", { Accept: "application/json" }, 405],
    ["/users/password", { Accept: "application/json" }, 405],
    ["/engine/workflows", { Accept: "application/json" }, 405],
    ["/counts/classifications", { Accept: "application/json" }, 200],
    ["/auth/csrf", { Accept: "application/json" }, 200],
    ["/unsubscribe", { Accept: "text/html" }, 405],
    ["/inngest", { Accept: "application/json" }, 404],
    [chunk!, {}, 200],
  ];
  for (const [path, headers, status] of answers) {
    const res = await request.get(path, { headers, maxRedirects: 0 });
    expect(res.status(), path).toBe(status);
    machinePolicy(res.headers());
  }
  // Stored files keep their own sandboxing policy, untouched too.
  const file = await request.get("/uploads/nowhere.png");
  expect(file.headers()["content-security-policy"] ?? "").not.toContain("nonce-");
});

test("a page loads and runs its scripts under the policy", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  // Violations as the page sees them (an init script runs outside the page's policy).
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  await page.goto("/");
  await expect(
    page
      .getByRole("searchbox")
      .or(page.getByRole("heading", { level: 1 }))
      .first(),
  ).toBeVisible();
  // Next's inline scripts ran (they fill self.__next_f) and React took over the page.
  expect(await page.evaluate(() => Array.isArray((self as unknown as { __next_f?: unknown }).__next_f))).toBe(true);
  await page.goto("/sign-in");
  await page.getByLabel("Login or email", { exact: true }).fill("nobody");
  await page.getByLabel("Password", { exact: true }).fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid login or password.")).toBeVisible();
  // A client-side navigation (chunks loaded by Next's own scripts, allowed by 'strict-dynamic').
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Statistics" }).click();
  await expect(page).toHaveURL(/\/stats$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(violations).toEqual([]);
});

/** The Set-Cookie headers of an answer, by cookie name. */
function setCookies(headers: { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(headers.filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => [h.value.split("=")[0], h.value]));
}

test("session cookies are HttpOnly and SameSite, and Secure behind HTTPS", async ({ playwright }) => {
  const user = newUser("cookie");
  for (const https of [false, true]) {
    const request = await playwright.request.newContext({ baseURL: E2E_BASE_URL });
    if (!https) await registerUser(request, user);
    const proto: Record<string, string> = https ? { "X-Forwarded-Proto": "https" } : {};
    // Auth.js (our pages): the CSRF cookie, then the session cookie of a credentials sign-in.
    const csrf = await request.get("/auth/csrf", { headers: proto });
    const csrfToken = (await csrf.json()).csrfToken as string;
    const csrfCookies = setCookies(csrf.headersArray());
    const signIn = await request.post("/auth/callback/credentials", {
      headers: {
        ...proto,
        Cookie: Object.values(csrfCookies)
          .map((c) => c.split(";")[0])
          .join("; "),
      },
      form: { login: user.login, password: user.password, csrfToken, callbackUrl: "/" },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    // The official clients' session (/users/sign_in).
    const clients = await request.get("/users/sign_in", { headers: { ...proto, Accept: "application/json" } });
    const cookies = { ...csrfCookies, ...setCookies(signIn.headersArray()), ...setCookies(clients.headersArray()) };
    const session = cookies[https ? "__Secure-authjs.session-token" : "authjs.session-token"];
    expect(session, JSON.stringify(Object.keys(cookies))).toBeTruthy();
    for (const name of [
      https ? "__Secure-authjs.session-token" : "authjs.session-token",
      "quorum_session",
      https ? "__Host-authjs.csrf-token" : "authjs.csrf-token",
    ]) {
      const cookie = cookies[name];
      expect(cookie, `${name} among ${Object.keys(cookies)}`).toBeTruthy();
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      if (https) expect(cookie, name).toMatch(/;\s*Secure/i);
      else expect(cookie, name).not.toMatch(/;\s*Secure/i);
    }
    await request.dispose();
  }
});
