// Security headers as a browser gets them from the production server: pages, API answers and errors carry
// the Content-Security-Policy (no framing by other sites), nosniff, a trimmed referrer; stored files their
// own sandboxing policy. The rest of the end-to-end suite runs under the same policy (a page it broke
// would fail there).
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "../env";
import { newUser, registerUser } from "../support";

const common = (h: Record<string, string>) => {
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["content-security-policy"]).toContain("object-src 'none'");
  expect(h["content-security-policy"]).toMatch(/script-src 'self' 'unsafe-inline'(;|$)/); // no eval in production
};

test("pages, API answers and errors carry the security headers", async ({ request }) => {
  for (const [path, status] of [["/", 200], ["/sign-in", 200], ["/api/projects", 200], ["/api/nowhere", 404], ["/counts/classifications", 200], ["/projects/999999999", 404]] as const) {
    const res = await request.get(path, { headers: { Accept: path.startsWith("/api") ? "application/vnd.api+json; version=1" : "text/html" } });
    expect(res.status(), path).toBe(status);
    common(res.headers());
  }
});

test("a page loads and runs its scripts under the policy", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto("/");
  await expect(page.getByRole("searchbox").or(page.getByRole("heading", { level: 1 })).first()).toBeVisible();
  await page.goto("/sign-in");
  await page.getByLabel("Login or email", { exact: true }).fill("nobody");
  await page.getByLabel("Password", { exact: true }).fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid login or password.")).toBeVisible();
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
      headers: { ...proto, Cookie: Object.values(csrfCookies).map((c) => c.split(";")[0]).join("; ") },
      form: { login: user.login, password: user.password, csrfToken, callbackUrl: "/" },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    // The official clients' session (/users/sign_in).
    const clients = await request.get("/users/sign_in", { headers: { ...proto, Accept: "application/json" } });
    const cookies = { ...csrfCookies, ...setCookies(signIn.headersArray()), ...setCookies(clients.headersArray()) };
    const session = cookies[https ? "__Secure-authjs.session-token" : "authjs.session-token"];
    expect(session, JSON.stringify(Object.keys(cookies))).toBeTruthy();
    for (const name of [https ? "__Secure-authjs.session-token" : "authjs.session-token", "quorum_session", https ? "__Host-authjs.csrf-token" : "authjs.csrf-token"]) {
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
