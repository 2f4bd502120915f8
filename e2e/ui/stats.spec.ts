// The public stats page: totals, a chart and a data table that follow the project, workflow and period chosen.
import { expect, test } from "@playwright/test";
import { accessToken, classifiableWorkflow, classify, createProject, uniqueName } from "../support";

test("switching project and period changes the chart and the numbers to the right values", async ({ page, request }) => {
  const token = await accessToken(request);
  const a = await createProject(request, token, { display_name: uniqueName("Stats A") });
  const b = await createProject(request, token, { display_name: uniqueName("Stats B") });
  const wa = await classifiableWorkflow(request, token, a.id);
  const wb = await classifiableWorkflow(request, token, b.id);
  await classify(request, a.id, wa, 3);
  await classify(request, b.id, wb, 5);
  // The server folds new classifications into the counts within about a second.
  await expect
    .poll(async () => (await (await request.get(`/counts/classifications?project_id=${b.id}`)).json()).total_count, { timeout: 15_000 })
    .toBe(5);

  const today = new Date().toLocaleDateString("en-GB", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
  const year = String(new Date().getUTCFullYear());

  await page.goto("/stats");
  await expect(page.getByRole("heading", { name: "Classification statistics" })).toBeVisible();
  const total = page.getByTestId("total-count");
  await expect(total).toHaveText(/\d/);
  expect(Number((await total.textContent())!.replace(/\D/g, ""))).toBeGreaterThanOrEqual(8);

  await page.getByLabel("Project").selectOption(a.id);
  await expect(total).toHaveText("3");
  await expect(page.getByRole("img", { name: /Bar chart of classifications per month/ })).toBeVisible();
  await page.getByText("Day", { exact: true }).click();
  await expect(page).toHaveURL(/period=day/);
  await page.getByText("Data table").click();
  const table = page.getByTestId("counts-table");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("row").nth(1)).toHaveText(`${today}3`);

  await page.getByLabel("Project").selectOption(b.id);
  await expect(total).toHaveText("5");
  await expect(table.getByRole("row").nth(1)).toHaveText(`${today}5`);
  await page.getByText("Year", { exact: true }).click();
  await expect(table.getByRole("row").nth(1)).toHaveText(`${year}5`);

  // A workflow of the project, and a range with nothing in it.
  await page.getByLabel("Workflow").selectOption(wb.workflowId);
  await expect(total).toHaveText("5");
  await page.getByLabel("From").fill("2001-01-01");
  await page.getByLabel("To").fill("2001-12-31");
  await expect(total).toHaveText("0");
  await expect(page.getByText("No classifications in this range.")).toBeVisible();
});

test("each project page links to its statistics", async ({ page, request }) => {
  const token = await accessToken(request);
  const p = await createProject(request, token, { display_name: uniqueName("Linked stats") });
  const w = await classifiableWorkflow(request, token, p.id, 1);
  await classify(request, p.id, w, 2);
  await expect
    .poll(async () => (await (await request.get(`/counts/classifications?project_id=${p.id}`)).json()).total_count, { timeout: 15_000 })
    .toBe(2);
  await page.goto(`/projects/${p.id}`);
  await page.getByRole("link", { name: "Classification statistics for this project" }).click();
  await expect(page).toHaveURL(new RegExp(`/stats\\?project_id=${p.id}`));
  await expect(page.getByTestId("total-count")).toHaveText("2");
});

test("the stats page is readable on a phone, even with long project names", async ({ page, request }) => {
  const token = await accessToken(request);
  const long = await createProject(request, token, {
    display_name: uniqueName("A project with a really rather long name for a phone screen"),
  });
  await classify(request, long.id, await classifiableWorkflow(request, token, long.id, 1), 1);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/stats");
  await expect(page.getByTestId("total-count")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
});
