// What surrounds the task in the classifier: a classification that cannot be sent (5xx after the server
// stored it, offline, a network error across a page reload) is kept in the browser and resent with the
// same Idempotency-Key until stored, exactly once; a refused one (4xx) is shown and can be dismissed.
import { expect, test, type Page } from "@playwright/test";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

const picture = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#334"/></svg>`;

async function currentSubject(page: Page) {
  const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
  await expect(image).toBeVisible();
  return (await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1];
}

async function answer(page: Page) {
  const id = await currentSubject(page);
  await page.getByLabel("Yes").check();
  await page.getByRole("button", { name: "Done" }).click();
  // The volunteer moves on at once, whatever happens to the save.
  await expect(page.getByRole("img", { name: new RegExp(`^Subject ${id},`) })).toHaveCount(0);
  return id;
}

test("classifications that cannot be sent are kept, resent and stored exactly once", async ({ page, request, context }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Pending") });
  const w = await classifiableWorkflow(request, token, project.id, 6);
  await context.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));
  const keys: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/classifications")) keys.push(r.headers()["idempotency-key"]);
  });

  const volunteer = newUser("ui_pend");
  await registerUser(request, volunteer);
  await signIn(page, volunteer.login, volunteer.password);
  await page.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  const pending = page.getByTestId("pending");

  // 1. The server stores it but the answer is lost (503 to the browser): resent with the same key.
  let failNext = true;
  await page.route("**/api/classifications", async (route) => {
    if (route.request().method() !== "POST" || !failNext) return route.fallback();
    failNext = false;
    const res = await route.fetch();
    expect(res.status()).toBe(201);
    await route.fulfill({ status: 503, body: "{}" });
  });
  const a = await answer(page);
  await expect(pending).toBeHidden({ timeout: 15_000 }); // retried after the backoff

  // 2. Offline: kept, then sent when the browser is online again.
  await context.setOffline(true);
  const b = await answer(page);
  await expect(pending).toContainText("1 pending");
  await context.setOffline(false);
  await expect(pending).toBeHidden({ timeout: 15_000 });

  // 3. A network error, then a page reload while it is pending: it is still there and sent from there.
  await page.unroute("**/api/classifications");
  await page.route("**/api/classifications", (route) => (route.request().method() === "POST" ? route.abort("connectionfailed") : route.fallback()));
  const c = await answer(page);
  await expect(pending).toContainText("1 pending");
  await page.reload();
  await expect(pending).toContainText("1 pending");
  await page.unroute("**/api/classifications");
  await page.getByRole("button", { name: "Retry now" }).click();
  await expect(pending).toBeHidden({ timeout: 15_000 });

  // 4. Refused (422): shown, not retried, dismissible.
  await page.route("**/api/classifications", (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify({ errors: [{ message: "not accepted" }] }) }) : route.fallback(),
  );
  await answer(page);
  const refused = page.getByRole("alert").filter({ hasText: "refused by the server: not accepted" });
  await expect(refused).toBeVisible();
  await expect(pending).toBeHidden();
  await refused.getByRole("button", { name: "Dismiss" }).click();
  await expect(refused).toBeHidden();
  await page.unroute("**/api/classifications");

  // Each stored exactly once, and every resend carried the key of its first attempt.
  const listed = await request.get(`/api/classifications/project?project_id=${project.id}&page_size=100`, { headers });
  expect(listed.status()).toBe(200);
  const subjects = (await listed.json()).classifications.map((c: { links: { subjects: string[] } }) => c.links.subjects[0]).sort();
  expect(subjects).toEqual([a, b, c].sort());
  expect(keys.every((k) => /^[0-9a-f-]{36}$/.test(k))).toBe(true);
  expect(new Set(keys).size).toBe(4); // a, b, c and the refused one
  expect(keys.length).toBeGreaterThan(4); // with resends
});
