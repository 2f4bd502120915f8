// Security headers as a browser gets them from the production server: pages, API answers and errors carry
// the Content-Security-Policy (no framing by other sites), nosniff, a trimmed referrer; stored files their
// own sandboxing policy. The rest of the end-to-end suite runs under the same policy (a page it broke
// would fail there).
import { expect, test } from "@playwright/test";

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
