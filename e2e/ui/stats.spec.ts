// The public stats page: totals, a chart and a data table that follow the project, workflow and period chosen.
import { expect, type Page, test } from "@playwright/test";
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

/** The chart's plot (its grid) and its bars, measured on the page. */
async function chartGeometry(page: Page) {
  const chart = page.getByTestId("counts-chart");
  await expect(chart.locator(".recharts-cartesian-grid")).toBeVisible();
  const plot = (await chart.locator(".recharts-cartesian-grid").boundingBox())!;
  const bars = await chart.locator(".recharts-bar-rectangle path").evaluateAll((ps) => ps.map((p) => p.getBoundingClientRect().width));
  const ticks = await chart.locator("[class*=recharts-xAxis-tick-labels] .recharts-cartesian-axis-tick-value").allTextContents();
  const yTicks = await chart.locator("[class*=recharts-yAxis-tick-labels] .recharts-cartesian-axis-tick-value").allTextContents();
  return { plot, bars: bars.filter((w) => w > 0), ticks, yTicks };
}

test("a chart with nothing in it keeps its axes, labelled, and says so", async ({ page, request }) => {
  const token = await accessToken(request);
  const quiet = await createProject(request, token, { display_name: uniqueName("Quiet"), live: true });
  await classifiableWorkflow(request, token, quiet.id, 1);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/stats?project_id=${quiet.id}&period=day`);
    await expect(page.getByTestId("total-count")).toHaveText("0");
    await expect(page.getByTestId("chart-empty")).toHaveText("Nothing to chart: no classifications in these days yet.");
    const g = await chartGeometry(page);
    expect(g.bars).toEqual([]);
    expect(g.ticks.length).toBeGreaterThan(1);
    expect(g.ticks.every((t) => /^\d{1,2} [A-Z][a-z]{2}$/.test(t))).toBe(true);
    expect(g.yTicks).toContain("0");
    expect(g.yTicks.length).toBeGreaterThan(1);
    await page.screenshot({ path: `test-results/screenshots/stats-empty-${width}.png`, fullPage: true });

    // The project page's statistics too.
    await page.goto(`/projects/${quiet.id}`);
    await expect(page.getByTestId("chart-empty")).toHaveText("No classifications in the last 30 days yet.");
    expect((await chartGeometry(page)).ticks.length).toBeGreaterThan(1);
    await page.getByTestId("counts-chart").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/project-statistics-empty-${width}.png`, fullPage: true });
  }
});

test("one day of classifications is one narrow bar on a 30-day axis", async ({ page, request }) => {
  const token = await accessToken(request);
  const p = await createProject(request, token, { display_name: uniqueName("One day"), live: true });
  await classify(request, p.id, await classifiableWorkflow(request, token, p.id, 1), 3);
  await expect
    .poll(async () => (await (await request.get(`/counts/classifications?project_id=${p.id}`)).json()).total_count, { timeout: 15_000 })
    .toBe(3);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/projects/${p.id}`);
    await expect(page.getByTestId("recent-classifications")).toContainText("3 classifications in the last 30 days");
    const g = await chartGeometry(page);
    expect(g.bars).toHaveLength(1);
    expect(g.bars[0]).toBeLessThan(g.plot.width / 10);
    expect(g.ticks.length).toBeGreaterThan(1);
    await page.getByTestId("counts-chart").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/project-statistics-${width}.png`, fullPage: true });

    await page.goto(`/stats?project_id=${p.id}&period=day`);
    await expect(page.getByTestId("total-count")).toHaveText("3");
    const s = await chartGeometry(page);
    expect(s.bars).toHaveLength(1);
    expect(s.bars[0]).toBeLessThan(s.plot.width / 10);
    await expect(page.getByTestId("chart-empty")).toHaveCount(0);
    await page.screenshot({ path: `test-results/screenshots/stats-${width}.png`, fullPage: true });
  }
});
